import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  getBase58Decoder,
  isSolanaError,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
} from '@solana/kit'
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token'
import {
  type AddressLookupTableAccount,
  AddressLookupTableProgram,
  Connection,
  Keypair,
  PublicKey,
  sendAndConfirmTransaction,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ExpectedDeposit, findReferencePayments, verifyDeposit } from '../src/chain/deposit.ts'
import { payoutStatus, preparePayout, sendPrepared } from '../src/chain/payout.ts'
import { type Chain, createChain, getBlockHeight } from '../src/chain/rpc.ts'
import { associatedTokenAddress, ownerTokenBalance, tokenBalance } from '../src/chain/token.ts'
import { loadOrCreateKeypair, type StoredKeypair } from '../src/lib/keys.ts'

interface TestToken {
  mint: PublicKey
  decimals: number
}

let localnet: Localnet
let chain: Chain
let connection: Connection
let keysDir: string
let plg: TestToken
let usdt: TestToken
/** The platform wallet receiving deposits (recipientOwner). */
const platform = Keypair.generate().publicKey
const AMOUNT = 25_000_000_000n

function token(symbol: string): TestToken {
  const info = localnet.tokens.find((t) => t.symbol === symbol)
  if (!info) throw new Error(`${symbol} missing`)
  return { mint: new PublicKey(info.mint), decimals: info.decimals }
}

async function fundedUser(): Promise<Keypair> {
  const user = Keypair.generate()
  await localnet.faucet(user.publicKey.toBase58(), {
    sol: 1_000_000_000n,
    tokens: { PLG: 1_000_000_000_000n, USDT: 1_000_000_000n },
  })
  return user
}

interface Deposit {
  from: Keypair
  token?: TestToken
  recipientOwner?: PublicKey
  amount?: bigint
  reference?: PublicKey
  /** Sends a v0 transaction using this lookup table instead of a legacy one. */
  lookupTable?: AddressLookupTableAccount
  skipPreflight?: boolean
}

/** A deposit built the way the web app does it: web3.js v1 + spl-token, reference appended to TransferChecked. */
async function sendDeposit({ from, token = plg, recipientOwner = platform, ...options }: Deposit): Promise<string> {
  const recipientAccount = getAssociatedTokenAddressSync(token.mint, recipientOwner)
  const transfer = createTransferCheckedInstruction(
    getAssociatedTokenAddressSync(token.mint, from.publicKey),
    token.mint,
    recipientAccount,
    from.publicKey,
    options.amount ?? AMOUNT,
    token.decimals,
  )
  if (options.reference) transfer.keys.push({ pubkey: options.reference, isSigner: false, isWritable: false })
  const instructions = [
    createAssociatedTokenAccountIdempotentInstruction(from.publicKey, recipientAccount, recipientOwner, token.mint),
    transfer,
  ]
  const latest = await connection.getLatestBlockhash()
  let wire: Uint8Array
  if (options.lookupTable) {
    const message = new TransactionMessage({
      payerKey: from.publicKey,
      recentBlockhash: latest.blockhash,
      instructions,
    }).compileToV0Message([options.lookupTable])
    const tx = new VersionedTransaction(message)
    tx.sign([from])
    wire = tx.serialize()
  } else {
    const tx = new Transaction({ feePayer: from.publicKey, ...latest }).add(...instructions)
    tx.sign(from)
    wire = tx.serialize()
  }
  const signature = await connection.sendRawTransaction(wire, { skipPreflight: options.skipPreflight ?? false })
  // web3.js rejects with the raw transaction error when its status poll, not the subscription, sees a failed one.
  await connection.confirmTransaction({ signature, ...latest }, 'confirmed').catch((error: unknown) => {
    if (!options.skipPreflight) throw error
  })
  return signature
}

function expected(signature: string, payer: Keypair, reference: PublicKey): ExpectedDeposit {
  return {
    signature,
    mint: plg.mint.toBase58(),
    recipientOwner: platform.toBase58(),
    amount: AMOUNT,
    reference: reference.toBase58(),
    payer: payer.publicKey.toBase58(),
  }
}

async function hotWallet(name: string, tokens: { PLG?: bigint }): Promise<StoredKeypair> {
  const keypair = await loadOrCreateKeypair(path.join(keysDir, `${name}.json`))
  await localnet.faucet(keypair.address, { sol: 1_000_000_000n, tokens })
  return keypair
}

/** A payout of PLG from `wallet` to a fresh wallet. */
function payoutOf(wallet: StoredKeypair) {
  return {
    hotWallet: wallet,
    mint: plg.mint.toBase58(),
    decimals: plg.decimals,
    to: Keypair.generate().publicKey.toBase58(),
    memo: 'withdraw:1',
  }
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

beforeAll(async () => {
  localnet = await startLocalnet({ port: 0, slotMs: 50 })
  chain = createChain(localnet.rpcUrl, localnet.wsUrl)
  connection = new Connection(localnet.rpcUrl, { commitment: 'confirmed', wsEndpoint: localnet.wsUrl })
  keysDir = await mkdtemp(path.join(tmpdir(), 'chain-test-'))
  plg = token('PLG')
  usdt = token('USDT')
})

afterAll(async () => {
  await localnet?.close()
  if (keysDir) await rm(keysDir, { recursive: true, force: true })
})

describe('chain: rpc and token balances', () => {
  it('reads the block height and token balances (null for a missing account)', async () => {
    const height = await getBlockHeight(chain)
    await poll(
      () => getBlockHeight(chain),
      (value) => value > height,
      5_000,
    )
    expect(await getBlockHeight(chain)).toBeGreaterThan(height)
    const user = await fundedUser()
    const owner = user.publicKey.toBase58()
    const account = await associatedTokenAddress(owner, plg.mint.toBase58())
    expect(account).toBe(getAssociatedTokenAddressSync(plg.mint, user.publicKey).toBase58())
    expect(await tokenBalance(chain, account)).toBe(1_000_000_000_000n)
    expect(await ownerTokenBalance(chain, owner, usdt.mint.toBase58())).toBe(1_000_000_000n)
    expect(await ownerTokenBalance(chain, Keypair.generate().publicKey.toBase58(), plg.mint.toBase58())).toBeNull()
  })
})

describe('chain: verifyDeposit', () => {
  it('verifies a good deposit', async () => {
    const user = await fundedUser()
    const reference = Keypair.generate().publicKey
    const before = (await ownerTokenBalance(chain, platform.toBase58(), plg.mint.toBase58())) ?? 0n
    const signature = await sendDeposit({ from: user, reference })
    const verdict = await verifyDeposit(chain, expected(signature, user, reference))
    expect(verdict).toEqual({ ok: true, slot: expect.any(BigInt), blockTime: expect.any(BigInt) })
    expect(await ownerTokenBalance(chain, platform.toBase58(), plg.mint.toBase58())).toBe(before + AMOUNT)
  })

  it('verifies a v0 deposit whose recipient account and reference come from a lookup table', async () => {
    const user = await fundedUser()
    const reference = Keypair.generate().publicKey
    const slot = await connection.getSlot()
    const [create, table] = AddressLookupTableProgram.createLookupTable({
      authority: user.publicKey,
      payer: user.publicKey,
      recentSlot: slot,
    })
    const extend = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: user.publicKey,
      payer: user.publicKey,
      addresses: [getAssociatedTokenAddressSync(plg.mint, platform), plg.mint, reference],
    })
    await sendAndConfirmTransaction(connection, new Transaction().add(create, extend), [user])
    // The addresses become usable in the next slot.
    const landed = await connection.getSlot()
    await expect.poll(() => connection.getSlot(), { interval: 20, timeout: 10_000 }).toBeGreaterThan(landed)
    const lookupTable = (await connection.getAddressLookupTable(table)).value
    if (!lookupTable) throw new Error('lookup table missing')

    const signature = await sendDeposit({ from: user, reference, lookupTable })
    const fetched = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    expect(fetched?.version).toBe(0)
    expect(fetched?.meta?.loadedAddresses?.writable).toHaveLength(1)
    expect((await verifyDeposit(chain, expected(signature, user, reference))).ok).toBe(true)
  })

  it('refuses the other token (wrong_mint) and another recipient (wrong_recipient)', async () => {
    const user = await fundedUser()
    const reference = Keypair.generate().publicKey
    const otherToken = await sendDeposit({ from: user, reference, token: usdt, amount: AMOUNT / 1000n })
    expect(await verifyDeposit(chain, expected(otherToken, user, reference))).toEqual({
      ok: false,
      reason: 'wrong_mint',
    })
    const otherRecipient = await sendDeposit({ from: user, reference, recipientOwner: Keypair.generate().publicKey })
    expect(await verifyDeposit(chain, expected(otherRecipient, user, reference))).toEqual({
      ok: false,
      reason: 'wrong_recipient',
    })
  })

  it('refuses a short amount (wrong_amount)', async () => {
    const user = await fundedUser()
    const reference = Keypair.generate().publicKey
    const signature = await sendDeposit({ from: user, reference, amount: AMOUNT - 1n })
    expect(await verifyDeposit(chain, expected(signature, user, reference))).toEqual({
      ok: false,
      reason: 'wrong_amount',
    })
  })

  it('refuses a transfer signed and paid by another wallet (not_signed_by_payer)', async () => {
    const user = await fundedUser()
    const other = await fundedUser()
    const reference = Keypair.generate().publicKey
    const signature = await sendDeposit({ from: other, reference })
    expect(await verifyDeposit(chain, expected(signature, user, reference))).toEqual({
      ok: false,
      reason: 'not_signed_by_payer',
    })
  })

  it('refuses a missing reference and the reference of another intent (missing_reference)', async () => {
    const user = await fundedUser()
    const reference = Keypair.generate().publicKey
    const withoutReference = await sendDeposit({ from: user })
    expect(await verifyDeposit(chain, expected(withoutReference, user, reference))).toEqual({
      ok: false,
      reason: 'missing_reference',
    })
    const otherIntent = await sendDeposit({ from: user, reference: Keypair.generate().publicKey })
    expect(await verifyDeposit(chain, expected(otherIntent, user, reference))).toEqual({
      ok: false,
      reason: 'missing_reference',
    })
  })

  it('refuses a failed transaction, an unknown signature and a transaction without TransferChecked', async () => {
    const user = await fundedUser()
    const reference = Keypair.generate().publicKey
    const failed = await sendDeposit({ from: user, reference, amount: 10n ** 15n, skipPreflight: true })
    expect(await verifyDeposit(chain, expected(failed, user, reference))).toEqual({ ok: false, reason: 'failed' })

    const unknown = getBase58Decoder().decode(randomBytes(64))
    expect(await verifyDeposit(chain, expected(unknown, user, reference))).toEqual({ ok: false, reason: 'not_found' })
    expect(await verifyDeposit(chain, expected('not-a-signature', user, reference))).toEqual({
      ok: false,
      reason: 'not_found',
    })

    const [solTransfer] = await localnet.faucet(user.publicKey.toBase58(), { sol: 1_000n })
    if (!solTransfer) throw new Error('faucet returned no signature')
    expect(await verifyDeposit(chain, expected(solTransfer, user, reference))).toEqual({
      ok: false,
      reason: 'no_transfer',
    })
  })

  it('findReferencePayments lists the successful payments of a reference, oldest first', async () => {
    const user = await fundedUser()
    const reference = Keypair.generate().publicKey
    await sendDeposit({ from: user, reference, amount: 10n ** 15n, skipPreflight: true })
    const first = await sendDeposit({ from: user, reference })
    const second = await sendDeposit({ from: user, reference, amount: AMOUNT + 1n }) // not the same bytes again
    expect(await findReferencePayments(chain, reference.toBase58())).toEqual([first, second])
    expect(await findReferencePayments(chain, Keypair.generate().publicKey.toBase58())).toEqual([])
  })
})

describe('chain: payouts', () => {
  it('two payouts of the same amount to the same wallet differ by their memo, so both can land', async () => {
    const wallet = await hotWallet('memo', { PLG: 100_000_000_000n })
    const request = { ...payoutOf(wallet), amount: 1_000n }
    const [a, b] = [await preparePayout(chain, request), await preparePayout(chain, { ...request, memo: 'withdraw:2' })]
    expect(a.signature).not.toBe(b.signature)
    expect(await sendPrepared(chain, a.wireTransaction)).toEqual({ sent: true })
    expect(await sendPrepared(chain, b.wireTransaction)).toEqual({ sent: true })
    const settled = async () =>
      (await Promise.all([a, b].map((p) => payoutStatus(chain, p.signature, p.lastValidBlockHeight)))).join()
    await expect.poll(settled, { timeout: 10_000 }).toBe('confirmed,confirmed')
    expect(await ownerTokenBalance(chain, request.to, request.mint)).toBe(2_000n)
  })

  it('prepares, sends and confirms a payout to a new account; resending the same bytes pays nothing more', async () => {
    const wallet = await hotWallet('hot', { PLG: 100_000_000_000n })
    const request = { ...payoutOf(wallet), amount: 40_000_000_000n }
    expect(await ownerTokenBalance(chain, request.to, request.mint)).toBeNull()

    const prepared = await preparePayout(chain, request)
    expect(prepared.lastValidBlockHeight).toBeGreaterThan(await getBlockHeight(chain))
    expect(await payoutStatus(chain, prepared.signature, prepared.lastValidBlockHeight)).toBe('pending')

    expect(await sendPrepared(chain, prepared.wireTransaction)).toEqual({ sent: true })
    const status = await poll(
      () => payoutStatus(chain, prepared.signature, prepared.lastValidBlockHeight),
      (value) => value !== 'pending',
      10_000,
    )
    expect(status).toBe('confirmed')
    expect(await ownerTokenBalance(chain, request.to, request.mint)).toBe(request.amount)
    expect(await ownerTokenBalance(chain, wallet.address, request.mint)).toBe(60_000_000_000n)

    expect(await sendPrepared(chain, prepared.wireTransaction)).toEqual({ sent: true })
    expect(await payoutStatus(chain, prepared.signature, prepared.lastValidBlockHeight)).toBe('confirmed')
    expect(await ownerTokenBalance(chain, request.to, request.mint)).toBe(request.amount)
    expect(await ownerTokenBalance(chain, wallet.address, request.mint)).toBe(60_000_000_000n)
  })

  it('refuses to send a payout larger than the hot wallet balance; it stays pending, nothing moves', async () => {
    const wallet = await hotWallet('poor', { PLG: 1_000n })
    const request = { ...payoutOf(wallet), amount: 1_001n }
    const prepared = await preparePayout(chain, request)
    const result = await sendPrepared(chain, prepared.wireTransaction)
    if (result.sent) throw new Error('expected a preflight refusal')
    expect(isSolanaError(result.error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(
      true,
    )
    expect(isSolanaError(result.error.cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true)
    expect(result.error.context.logs?.join('\n')).toContain('insufficient funds')
    expect(await payoutStatus(chain, prepared.signature, prepared.lastValidBlockHeight)).toBe('pending')
    expect(await ownerTokenBalance(chain, wallet.address, request.mint)).toBe(1_000n)
    expect(await ownerTokenBalance(chain, request.to, request.mint)).toBeNull()
  })

  it('reports a landed transaction that failed as failed', async () => {
    const user = await fundedUser()
    const failed = await sendDeposit({ from: user, amount: 10n ** 15n, skipPreflight: true })
    const height = await getBlockHeight(chain)
    expect(await payoutStatus(chain, failed, height + 150n)).toBe('failed')
  })

  it('a prepared payout never sent becomes expired once the block height passes its last valid height', async () => {
    const wallet = await hotWallet('idle', { PLG: 1_000n })
    const prepared = await preparePayout(chain, { ...payoutOf(wallet), amount: 1n })
    const status = await poll(
      () => payoutStatus(chain, prepared.signature, prepared.lastValidBlockHeight),
      (value) => value !== 'pending',
      30_000,
    )
    expect(status).toBe('expired')
    expect(await getBlockHeight(chain, 'finalized')).toBeGreaterThan(prepared.lastValidBlockHeight)
    const late = await sendPrepared(chain, prepared.wireTransaction)
    expect(late.sent).toBe(false) // blockhash not found: it can never land
    expect(await ownerTokenBalance(chain, wallet.address, plg.mint.toBase58())).toBe(1_000n)
  })
})
