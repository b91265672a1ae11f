// Mainnet readiness of the chain code on the local chain: Token-2022 mints, the priority fee of payouts, and RPC
// failover across endpoints (a closed port, a flaky proxy).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMintInstruction,
  createInitializeTransferFeeConfigInstruction,
  createTransferCheckedInstruction,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getMintLen,
  TOKEN_2022_PROGRAM_ID,
} from '@solana/spl-token'
import { Connection, Keypair, PublicKey, SystemProgram, sendAndConfirmTransaction, Transaction } from '@solana/web3.js'
import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyDeposit } from '../src/chain/deposit.ts'
import {
  computeUnitPrice,
  type PreparedPayout,
  payoutStatus,
  preparePayout,
  sendPrepared,
} from '../src/chain/payout.ts'
import { type Chain, type ChainOptions, createChain } from '../src/chain/rpc.ts'
import {
  ownerTokenAccount,
  ownerTokenBalance,
  REFUSED_EXTENSIONS,
  readMint,
  TOKEN_2022_PROGRAM_ADDRESS,
} from '../src/chain/token.ts'
import { parseSecretKey } from '../src/config.ts'

let localnet: Localnet
let chain: Chain
let connection: Connection
/** A Token-2022 mint (no extensions) made by the local chain's faucet. */
let t22: { mint: string; decimals: number }

beforeAll(async () => {
  localnet = await startLocalnet({
    port: 0,
    slotMs: 50,
    tokens: [
      { symbol: 'PLG', decimals: 9 },
      { symbol: 'T22', decimals: 6, program: 'token-2022' },
    ],
  })
  chain = createChain(localnet.rpcUrl, localnet.wsUrl)
  connection = new Connection(localnet.rpcUrl, { commitment: 'confirmed', wsEndpoint: localnet.wsUrl })
  const info = localnet.tokens.find((t) => t.symbol === 'T22')
  if (!info) throw new Error('T22 missing')
  t22 = info
})

afterAll(() => localnet?.close())

/** A funded wallet, as a keypair (web3.js) and a stored keypair (the server's hot wallet format). */
async function wallet(tokens: Record<string, bigint> = {}) {
  const keypair = Keypair.generate()
  await localnet.faucet(keypair.publicKey.toBase58(), { sol: 1_000_000_000n, tokens })
  return { keypair, stored: parseSecretKey(JSON.stringify([...keypair.secretKey])) }
}

async function settled(target: Chain, prepared: PreparedPayout) {
  await expect
    .poll(() => payoutStatus(target, prepared.signature, prepared.lastValidBlockHeight), { timeout: 10_000 })
    .toBe('confirmed')
}

const payoutTo = (hot: Awaited<ReturnType<typeof wallet>>, mint: string, decimals: number, amount: bigint) => ({
  hotWallet: hot.stored,
  mint,
  decimals,
  to: Keypair.generate().publicKey.toBase58(),
  amount,
  memo: 'withdraw:t',
})

describe('chain: Token-2022 mints', () => {
  it("reads the mint's program and derives its associated token accounts with it", async () => {
    expect(await readMint(chain, t22.mint)).toEqual({
      program: TOKEN_2022_PROGRAM_ADDRESS,
      decimals: 6,
      extensions: [],
    })
    const owner = Keypair.generate().publicKey
    const expected = getAssociatedTokenAddressSync(new PublicKey(t22.mint), owner, false, TOKEN_2022_PROGRAM_ID)
    expect(await ownerTokenAccount(chain, owner.toBase58(), t22.mint)).toBe(expected.toBase58())
    const plg = localnet.tokens.find((t) => t.symbol === 'PLG')?.mint as string
    expect((await readMint(chain, plg)).program).toBe('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')
    await expect(readMint(chain, owner.toBase58())).rejects.toThrow('does not exist')
  })

  it('verifies a deposit made with TransferChecked on Token-2022', async () => {
    const user = await wallet({ T22: 5_000_000n })
    const platform = Keypair.generate().publicKey
    const reference = Keypair.generate().publicKey
    const mint = new PublicKey(t22.mint)
    const destination = getAssociatedTokenAddressSync(mint, platform, false, TOKEN_2022_PROGRAM_ID)
    const transfer = createTransferCheckedInstruction(
      getAssociatedTokenAddressSync(mint, user.keypair.publicKey, false, TOKEN_2022_PROGRAM_ID),
      mint,
      destination,
      user.keypair.publicKey,
      3_000_000n,
      6,
      [],
      TOKEN_2022_PROGRAM_ID,
    )
    transfer.keys.push({ pubkey: reference, isSigner: false, isWritable: false })
    const signature = await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        createAssociatedTokenAccountIdempotentInstruction(
          user.keypair.publicKey,
          destination,
          platform,
          mint,
          TOKEN_2022_PROGRAM_ID,
        ),
        transfer,
      ),
      [user.keypair],
    )
    const expected = {
      signature,
      mint: t22.mint,
      recipientOwner: platform.toBase58(),
      amount: 3_000_000n,
      reference: reference.toBase58(),
      payer: user.keypair.publicKey.toBase58(),
    }
    expect(await verifyDeposit(chain, expected)).toMatchObject({ ok: true })
    expect(await verifyDeposit(chain, { ...expected, amount: 3_000_001n })).toEqual({
      ok: false,
      reason: 'wrong_amount',
    })
    expect(await ownerTokenBalance(chain, platform.toBase58(), t22.mint)).toBe(3_000_000n)
  })

  it('pays a payout on Token-2022, creating the recipient account on that program', async () => {
    const hot = await wallet({ T22: 10_000_000n })
    const request = payoutTo(hot, t22.mint, 6, 4_000_000n)
    const prepared = await preparePayout(chain, request)
    expect(await sendPrepared(chain, prepared.wireTransaction)).toEqual({ sent: true })
    await settled(chain, prepared)
    expect(await ownerTokenBalance(chain, request.to, t22.mint)).toBe(4_000_000n)
    expect(await ownerTokenBalance(chain, hot.stored.address, t22.mint)).toBe(6_000_000n)
    const account = await connection.getAccountInfo(
      getAssociatedTokenAddressSync(new PublicKey(t22.mint), new PublicKey(request.to), false, TOKEN_2022_PROGRAM_ID),
    )
    expect(account?.owner.equals(TOKEN_2022_PROGRAM_ID)).toBe(true)
  })

  it('sees the transfer-fee extension of a Token-2022 mint (the server refuses such a mint)', async () => {
    const payer = (await wallet()).keypair
    const mint = Keypair.generate()
    const space = getMintLen([ExtensionType.TransferFeeConfig])
    await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: mint.publicKey,
          space,
          lamports: await connection.getMinimumBalanceForRentExemption(space),
          programId: TOKEN_2022_PROGRAM_ID,
        }),
        createInitializeTransferFeeConfigInstruction(mint.publicKey, null, null, 50, 1_000_000n, TOKEN_2022_PROGRAM_ID),
        createInitializeMintInstruction(mint.publicKey, 6, payer.publicKey, null, TOKEN_2022_PROGRAM_ID),
      ),
      [payer, mint],
    )
    const info = await readMint(chain, mint.publicKey.toBase58())
    expect(info).toEqual({
      program: TOKEN_2022_PROGRAM_ADDRESS,
      decimals: 6,
      extensions: [ExtensionType.TransferFeeConfig],
    })
    expect(REFUSED_EXTENSIONS[ExtensionType.TransferFeeConfig]).toContain('transfer fee')
  })
})

describe('chain: priority fees', () => {
  const withFee = (priorityFee: ChainOptions['priorityFee']) =>
    createChain(localnet.rpcUrl, localnet.wsUrl, { priorityFee })
  const plg = () => localnet.tokens.find((t) => t.symbol === 'PLG')?.mint as string

  it('a payout sets its compute-unit price and a limit sized for it; the fee paid is the base fee plus price × limit', async () => {
    const hot = await wallet({ PLG: 1_000_000n })
    const fixed = withFee({ fixed: 7_000n, max: 10_000n, percentile: 75 })
    const prepared = await preparePayout(fixed, payoutTo(hot, plg(), 9, 1_000n))
    expect(await sendPrepared(fixed, prepared.wireTransaction)).toEqual({ sent: true })
    await settled(fixed, prepared)
    const tx = await connection.getTransaction(prepared.signature, { maxSupportedTransactionVersion: 0 })
    const budget = tx?.transaction.message.compiledInstructions.filter((ix) =>
      tx.transaction.message.staticAccountKeys[ix.programIdIndex]?.equals(
        new PublicKey('ComputeBudget111111111111111111111111111111'),
      ),
    )
    const [limitIx, priceIx] = budget ?? []
    const limit = Buffer.from(limitIx?.data ?? []).readUInt32LE(1)
    expect(Buffer.from(priceIx?.data ?? []).readBigUInt64LE(1)).toBe(7_000n)
    const used = tx?.meta?.computeUnitsConsumed ?? 0
    expect(used).toBeGreaterThan(0)
    expect(limit).toBeGreaterThanOrEqual(used)
    expect(limit).toBeLessThanOrEqual(Math.ceil(used * 1.1) + 1)
    expect(tx?.meta?.fee).toBe(5_000 + Math.ceil((7_000 * limit) / 1_000_000))
  })

  it('from getRecentPrioritizationFees: the percentile of the fees paid for the written accounts, under the ceiling', async () => {
    const hot = await wallet({ PLG: 1_000_000n })
    const account = hot.keypair.publicKey.toBase58() as Parameters<typeof computeUnitPrice>[1][number]
    for (const price of [2_000n, 9_000n]) {
      const paying = withFee({ fixed: price, max: price, percentile: 75 })
      const prepared = await preparePayout(paying, payoutTo(hot, plg(), 9, 10n))
      await sendPrepared(paying, prepared.wireTransaction)
      await settled(paying, prepared)
      // Each in its own slot: a slot's fee is the lowest price paid in it, as Agave reports it.
      const landed = await connection.getSlot()
      await expect.poll(() => connection.getSlot(), { interval: 20 }).toBeGreaterThan(landed)
    }
    expect(await computeUnitPrice(withFee({ max: 1_000_000n, percentile: 100 }), [account])).toBe(9_000n)
    expect(await computeUnitPrice(withFee({ max: 5_000n, percentile: 100 }), [account])).toBe(5_000n)
    expect(await computeUnitPrice(withFee({ max: 1_000_000n, percentile: 0 }), [account])).toBe(0n)
    // An account nobody wrote: no fee to outbid.
    const idle = Keypair.generate().publicKey.toBase58() as typeof account
    expect(await computeUnitPrice(withFee({ max: 1_000_000n, percentile: 100 }), [idle])).toBe(0n)
    expect(await computeUnitPrice(withFee({ fixed: 3_000n, max: 2_000n, percentile: 100 }), [account])).toBe(2_000n)
  })
})

/** A loopback proxy in front of the local chain's RPC that answers 503 instead when `fails(n)` says so for request n. */
async function proxy(target: string, fails: (n: number) => boolean) {
  const counts = { requests: 0, failed: 0 }
  const server = http.createServer(async (req, res) => {
    const n = counts.requests++
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (fails(n)) {
      counts.failed++
      res.writeHead(503).end('unavailable')
      return
    }
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
    })
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, counts, close: () => new Promise((resolve) => server.close(resolve)) }
}

/** A loopback URL nobody listens on. */
async function closedPort() {
  const server = http.createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

describe('chain: RPC endpoints with failover', () => {
  it('fails over from a closed port to the next endpoint and keeps it resting while it backs off', async () => {
    const dead = await closedPort()
    const two = createChain([dead, localnet.rpcUrl], localnet.wsUrl, { backoff: { baseMs: 60_000 } })
    expect(await two.rpc.getSlot().send()).toBeGreaterThan(0n)
    expect(await two.rpc.getSlot().send()).toBeGreaterThan(0n)
    const [first, second] = two.endpoints.status()
    expect(first).toMatchObject({ host: new URL(dead).host, healthy: false, failures: 1 })
    expect(first?.lastError).toContain('ECONNREFUSED')
    expect(second).toMatchObject({ healthy: true, failures: 0, lastError: null })
  })

  it('comes back to the primary once its backoff is over and it answers again, logging the outage once and the recovery', async () => {
    let down = true
    const primary = await proxy(localnet.rpcUrl, () => down)
    const lines: { level: string; fields: Record<string, unknown>; message: string }[] = []
    const log = {
      warn: (fields: object, message: string) => lines.push({ level: 'warn', fields: { ...fields }, message }),
      info: (fields: object, message: string) => lines.push({ level: 'info', fields: { ...fields }, message }),
    }
    try {
      const two = createChain([primary.url, localnet.rpcUrl], localnet.wsUrl, { backoff: { baseMs: 200, log } })
      await two.rpc.getSlot().send()
      expect(primary.counts).toEqual({ requests: 1, failed: 1 })
      // Failing again while down adds no line.
      await expect.poll(() => two.endpoints.status()[0]?.healthy, { timeout: 5_000 }).toBe(true)
      await two.rpc.getSlot().send()
      expect(primary.counts).toEqual({ requests: 2, failed: 2 })
      const host = new URL(primary.url).host
      expect(lines).toEqual([
        { level: 'warn', fields: { host, err: expect.stringContaining('503') }, message: 'RPC endpoint unreachable' },
      ])
      down = false
      await expect.poll(() => two.endpoints.status()[0]?.healthy, { timeout: 5_000 }).toBe(true)
      await two.rpc.getSlot().send()
      expect(primary.counts).toEqual({ requests: 3, failed: 2 })
      expect(two.endpoints.status()[0]).toMatchObject({ healthy: true, failures: 0 })
      expect(lines).toHaveLength(2)
      expect(lines[1]).toEqual({
        level: 'info',
        fields: { host, down_ms: expect.any(Number) },
        message: expect.stringMatching(/^RPC endpoint reachable again after \d+ s$/),
      })
      expect(lines[1]?.fields.down_ms).toBeGreaterThan(0)
    } finally {
      await primary.close()
    }
  })

  it('a flaky endpoint failing every other request still serves a whole payout (prepare, send, confirm) and balance reads', async () => {
    const flaky = await proxy(localnet.rpcUrl, (n) => n % 2 === 0)
    try {
      const one = createChain([flaky.url], localnet.wsUrl, { backoff: { baseMs: 20 } })
      const hot = await wallet({ T22: 1_000_000n })
      const prepared = await preparePayout(one, payoutTo(hot, t22.mint, 6, 250_000n))
      expect(await sendPrepared(one, prepared.wireTransaction)).toEqual({ sent: true })
      await settled(one, prepared)
      expect(await ownerTokenBalance(one, hot.stored.address, t22.mint)).toBe(750_000n)
      expect(flaky.counts.failed).toBeGreaterThanOrEqual(5)
      expect(flaky.counts.failed).toBeGreaterThanOrEqual(Math.floor(flaky.counts.requests / 2))
    } finally {
      await flaky.close()
    }
  })
})
