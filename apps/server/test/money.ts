import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js'
import { api, type PaymentIntent } from '@solpledge/contract'
import { type Localnet, startLocalnet, type TokenConfig } from '@solpledge/localnet'
import { seedAssets } from '../src/modules/assets/seed.ts'
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

/** A logged-in user whose wallet holds SOL and tokens on the local chain. */
export async function fundedUser(
  ctx: Awaited<ReturnType<typeof createChainApp>>,
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
