import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js'
import { api, Code, type PaymentIntent } from '@solpledge/contract'
import { type Localnet, startLocalnet, type TokenConfig } from '@solpledge/localnet'
import { seedAssets } from '../src/modules/assets/seed.ts'
import { processWithdrawals, type SenderPass } from '../src/modules/withdrawals/sender.ts'
import { call, createTestApp, login, seedRoot, type TestContext, TestWallet } from './helpers.ts'

/**
 * A test app on the local chain, with its assets seeded and the hot wallet funded, as `npm start` does. `tokens`: the
 * local chain's mints (default PLG and USDT on the classic token program).
 */
export async function createChainApp(
  options: { tokens?: TokenConfig[] } = {},
): Promise<TestContext & { localnet: Localnet; connection: Connection; root: TestWallet }> {
  const localnet = await startLocalnet({ port: 0, slotMs: 50, tokens: options.tokens })
  const t = await createTestApp({ rpcUrl: localnet.rpcUrl, wsUrl: localnet.wsUrl })
  await seedAssets(t.db, t.app.config, t.platform)
  const root = await seedRoot(t.db)
  return {
    ...t,
    localnet,
    root,
    connection: new Connection(localnet.rpcUrl, { commitment: 'confirmed', wsEndpoint: localnet.wsUrl }),
    close: async () => {
      await t.close()
      await localnet.close()
    },
  }
}

export type ChainApp = Awaited<ReturnType<typeof createChainApp>>

/** A logged-in user whose wallet holds SOL and tokens on the local chain. */
export async function fundedUser(
  ctx: ChainApp,
  tokens: Record<string, bigint> = { USDT: 1_000_000_000n, PLG: 1_000_000_000_000n },
) {
  const wallet = new TestWallet()
  const keypair = Keypair.fromSeed(wallet.secret)
  const session = await login(ctx.app, wallet, ctx.root.address)
  const token = (session.data as { token: string }).token
  await ctx.localnet.faucet(wallet.address, { sol: 2_000_000_000n, tokens })
  return { wallet, keypair, auth: { token, address: wallet.address } }
}

export interface PayOptions {
  mint?: string
  recipientOwner?: string
  amount?: bigint
  reference?: string | null
  decimals?: number
  /** Signs as the transfer authority instead of the user (the user still pays the fee). */
  authority?: Keypair
  skipPreflight?: boolean
}

/**
 * Pays an intent the way the web app does: create the recipient ATA if needed, TransferChecked with the reference, on
 * the program that owns the mint (classic SPL Token or Token-2022).
 */
export async function pay(connection: Connection, payer: Keypair, intent: PaymentIntent, options: PayOptions = {}) {
  const mint = new PublicKey(options.mint ?? intent.mint)
  const program = (await connection.getAccountInfo(mint))?.owner ?? TOKEN_PROGRAM_ID
  const owner = new PublicKey(options.recipientOwner ?? intent.recipient)
  const authority = options.authority ?? payer
  const from = getAssociatedTokenAddressSync(mint, authority.publicKey, false, program)
  const to = getAssociatedTokenAddressSync(mint, owner, true, program)
  const transfer = createTransferCheckedInstruction(
    from,
    mint,
    to,
    authority.publicKey,
    options.amount ?? BigInt(intent.amount),
    options.decimals ?? intent.decimals,
    [],
    program,
  )
  const reference = options.reference === undefined ? intent.reference : options.reference
  if (reference) transfer.keys.push({ pubkey: new PublicKey(reference), isSigner: false, isWritable: false })
  const tx = new Transaction().add(
    createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, to, owner, mint, program),
    transfer,
  )
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed')
  tx.recentBlockhash = blockhash
  tx.feePayer = payer.publicKey
  tx.sign(...(authority === payer ? [payer] : [payer, authority]))
  const signature = await connection.sendRawTransaction(tx.serialize(), {
    skipPreflight: options.skipPreflight ?? false,
  })
  await connection
    .confirmTransaction({ signature, blockhash, lastValidBlockHeight }, 'confirmed')
    .catch(() => undefined)
  return signature
}

export async function createIntent(
  ctx: { app: TestContext['app'] },
  auth: { token: string; address: string },
  coin: string,
  amount: bigint,
) {
  const res = await call(ctx.app, api.intentCreate, { purpose: 'recharge', coin, amount: amount.toString() }, auth)
  if (res.code !== 1) throw new Error(`intentCreate: ${res.msg}`)
  return res.data as PaymentIntent
}

export async function available(
  ctx: { app: TestContext['app'] },
  auth: { token: string; address: string },
  coin: string,
) {
  const res = await call(ctx.app, api.userWallet, {}, auth)
  const row = (res.data as { list: { coin: string; available: string }[] }).list.find((a) => a.coin === coin)
  return BigInt(row?.available ?? '0')
}

/** A user with `amount` USDT on the platform, topped up for real: intent, payment on chain, report. */
export async function depositor(ctx: ChainApp, amount: bigint) {
  const user = await fundedUser(ctx, { USDT: amount })
  const intent = await createIntent(ctx, user.auth, 'USDT', amount)
  const signature = await pay(ctx.connection, user.keypair, intent)
  const res = await call(ctx.app, api.intentSubmit, { id: intent.id, signature }, user.auth)
  if (res.code !== Code.OK) throw new Error(`intentSubmit: ${res.msg}`)
  return user
}

/**
 * Runs sender passes until no withdrawal is pending or sent any more, a pass a slot of the chain (what a next pass
 * may find changed), failing on a pass's error or after `timeoutMs`; returns the passes made.
 */
export async function sendAll(ctx: ChainApp, timeoutMs = 20_000): Promise<SenderPass[]> {
  const passes: SenderPass[] = []
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const pass = await processWithdrawals(ctx.db, ctx.platform)
    if (pass.errors.length > 0) throw new Error(`sender pass failed: ${pass.errors.map((e) => e.error).join('; ')}`)
    passes.push(pass)
    if (pass.checked === 0) return passes
    if (Date.now() > deadline) throw new Error(`withdrawals still open after ${timeoutMs} ms`)
    await nextSlot(ctx.connection)
  }
}

/** Resolves at the chain's next slot (its slot notification). */
function nextSlot(connection: Connection): Promise<void> {
  return new Promise((resolve) => {
    const id = connection.onSlotChange(() => {
      void connection.removeSlotChangeListener(id)
      resolve()
    })
  })
}

/** Resolves once the chain's finalized block height is past `height` (a blockhash valid up to it has expired). */
export async function blockHeightPast(connection: Connection, height: bigint) {
  while (BigInt(await connection.getBlockHeight('finalized')) <= height) await nextSlot(connection)
}
