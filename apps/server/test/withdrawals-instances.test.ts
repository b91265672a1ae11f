// The withdrawal sender on several instances (docs/money.md "Withdrawals"): their passes share the open withdrawals by
// a lease, so each is prepared and asked about by one instance, and an instance that stops (dies, hangs) leaves its
// withdrawals to the others once its lease has expired — every one still paid exactly once. On PostgreSQL the two
// instances have a pool each; on PGlite, one process's only session, they share it (their RPC work still overlaps).
import { createDefaultRpcTransport, getBase58Decoder, type RpcTransport } from '@solana/kit'
import { api, Code, type Withdrawal } from '@solpledge/contract'
import { USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payoutStatus, payoutStatuses } from '../src/chain/payout.ts'
import { type Chain, createChain } from '../src/chain/rpc.ts'
import { ownerTokenBalance } from '../src/chain/token.ts'
import { type Database, openDatabase } from '../src/db/index.ts'
import { checkInvariants } from '../src/modules/ledger/service.ts'
import { processWithdrawals, type SenderPass } from '../src/modules/withdrawals/sender.ts'
import type { Platform } from '../src/platform.ts'
import { call, dbKind } from './helpers.ts'
import { type ChainApp, createChainApp, depositor } from './money.ts'

const FEE = 1n * USDT // seeded

/** A chain client of its own (an instance's) that counts its RPC calls by method; `hold` may delay a call. */
function countingChain(ctx: ChainApp, hold?: (method: string) => Promise<void>) {
  const calls = new Map<string, number>()
  const transport = (url: string): RpcTransport => {
    const http = createDefaultRpcTransport({ url })
    return (async (request: Parameters<RpcTransport>[0]) => {
      const { method } = request.payload as { method: string }
      calls.set(method, (calls.get(method) ?? 0) + 1)
      await hold?.(method)
      return http(request)
    }) as RpcTransport
  }
  const chain: Chain = createChain(ctx.localnet.rpcUrl, ctx.localnet.wsUrl, {
    transport,
    priorityFee: ctx.platform.chain.priorityFee,
    commitment: ctx.platform.chain.commitment,
  })
  return { chain, calls, count: (method: string) => calls.get(method) ?? 0 }
}

describe(`the withdrawal sender on two instances (${dbKind})`, () => {
  let ctx: ChainApp
  let mint: string
  /** The second instance's database: a pool of its own on PostgreSQL, the same PGlite otherwise. */
  let second: Database
  beforeAll(async () => {
    ctx = await createChainApp()
    mint = ctx.localnet.tokens.find((t) => t.symbol === 'USDT')?.mint as string
    second = ctx.url ? await openDatabase({ url: ctx.url }) : ctx.db
  }, 120_000)
  afterAll(async () => {
    if (second && second !== ctx.db) await second.destroy()
    await ctx?.close()
  })

  /** An instance: its database, its chain client (counted) and its name; `leaseMs` as the job's pass would lease. */
  function instance(
    name: string,
    db: Database,
    options: { leaseMs?: number; hold?: (method: string) => Promise<void> } = {},
  ) {
    const counted = countingChain(ctx, options.hold)
    const platform: Platform = { ...ctx.platform, chain: counted.chain }
    const stored: string[] = []
    return {
      ...counted,
      stored,
      pass: () =>
        processWithdrawals(db, platform, {
          instance: name,
          leaseMs: options.leaseMs,
          onStep: (step, id) => {
            if (step === 'stored') stored.push(id)
          },
        }),
    }
  }

  const onChain = async (owner: string) => (await ownerTokenBalance(ctx.platform.chain, owner, mint)) ?? 0n

  const open = async () =>
    (await ctx.db.selectFrom('withdrawals').select('id').where('status', 'in', ['pending', 'sent']).execute()).length

  /** Passes of every instance at once, a chain slot apart, until nothing is open (a pass's error fails the test). */
  async function drain(instances: { pass: () => Promise<SenderPass> }[], timeoutMs = 30_000) {
    const passes: SenderPass[] = []
    const deadline = Date.now() + timeoutMs
    while ((await open()) > 0) {
      if (Date.now() > deadline) throw new Error(`withdrawals still open after ${timeoutMs} ms`)
      const round = await Promise.all(instances.map((i) => i.pass()))
      for (const pass of round)
        if (pass.errors.length) throw new Error(`sender pass failed: ${pass.errors.map((e) => e.error).join('; ')}`)
      passes.push(...round)
      await new Promise((resolve) => setTimeout(resolve, 60))
    }
    return passes
  }

  it('passes at once prepare each withdrawal once, and ask about each sent one once a round, one call a take', async () => {
    // More withdrawals than a pass takes at a time (20), so that both instances get some at once.
    const count = 26
    const user = await depositor(ctx, BigInt(count) * 12n * USDT)
    const ids: string[] = []
    for (let i = 0; i < count; i++) {
      const res = await call(ctx.app, api.withdraw, { coin: 'USDT', amount: String(12n * USDT) }, user.auth)
      expect(res.code, res.msg).toBe(Code.OK)
      ids.push((res.data as Withdrawal).id)
    }
    const a = instance('instance-a', ctx.db)
    const b = instance('instance-b', second)

    const [first, other] = await Promise.all([a.pass(), b.pass()])
    expect(first.errors).toEqual([])
    expect(other.errors).toEqual([])
    // Each withdrawal taken by one of them, prepared (one blockhash each) and stored once; both had a share.
    expect(first.checked + other.checked).toBe(count)
    expect(first.checked).toBeGreaterThan(0)
    expect(other.checked).toBeGreaterThan(0)
    expect(a.count('getLatestBlockhash') + b.count('getLatestBlockhash')).toBe(count)
    expect([...a.stored, ...b.stored].sort()).toEqual([...ids].sort())
    expect(a.stored.filter((id) => b.stored.includes(id))).toEqual([])
    expect(first.sent + other.sent).toBe(count)
    // Nothing was sent yet when they took them: no status asked.
    expect(a.count('getSignatureStatuses') + b.count('getSignatureStatuses')).toBe(0)

    // The next round: each instance keeps its own share (its lease renewed), and asks about it in one call a take.
    const leases = async () =>
      Object.fromEntries(
        (await ctx.db.selectFrom('withdrawals').select(['id', 'sender_lease_by']).where('id', 'in', ids).execute()).map(
          (row) => [row.id, row.sender_lease_by],
        ),
      )
    const before = await leases()
    expect(Object.values(before).filter((by) => by === 'instance-a')).toHaveLength(first.checked)
    const [statusesA, statusesB] = [a.count('getSignatureStatuses'), b.count('getSignatureStatuses')]
    const [second1, second2] = await Promise.all([a.pass(), b.pass()])
    expect([second1.checked, second2.checked]).toEqual([first.checked, other.checked])
    expect(a.count('getSignatureStatuses') - statusesA).toBe(Math.ceil(first.checked / 20))
    expect(b.count('getSignatureStatuses') - statusesB).toBe(Math.ceil(other.checked / 20))
    const after = await leases()
    for (const id of ids) if (before[id] !== null) expect(after[id]).toBe(before[id])

    // Until every one is settled: paid once each (no more blockhashes than withdrawals and the replacements).
    const passes = await drain([a, b])
    const renewed = passes.reduce((sum, pass) => sum + pass.renewed, 0)
    expect(a.count('getLatestBlockhash') + b.count('getLatestBlockhash')).toBe(count + renewed)
    expect(await onChain(user.wallet.address)).toBe(BigInt(count) * (12n * USDT - FEE))
    const rows = await ctx.db.selectFrom('withdrawals').select('status').where('id', 'in', ids).execute()
    expect(rows.every((row) => row.status === 'confirmed')).toBe(true)
    expect(await checkInvariants(ctx.db)).toEqual([])
  }, 120_000)

  it('the withdrawals of an instance that stopped are taken over once its lease expires, and paid once', async () => {
    const user = await depositor(ctx, 30n * USDT)
    const { id } = (await call(ctx.app, api.withdraw, { coin: 'USDT', amount: String(30n * USDT) }, user.auth))
      .data as Withdrawal
    // The stopped instance: it takes the withdrawal (a 2 s lease), then its node never answers the blockhash — as an
    // instance that hangs or dies after taking its share.
    let stuck = () => {}
    const holding = new Promise<void>((resolve) => {
      stuck = resolve
    })
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const stopped = instance('instance-stopped', ctx.db, {
      leaseMs: 2_000,
      hold: async (method) => {
        if (method !== 'getLatestBlockhash') return
        stuck()
        await released
      },
    })
    const alive = instance('instance-alive', second)
    try {
      const hung = stopped.pass()
      await holding
      const taken = await ctx.db
        .selectFrom('withdrawals')
        .select(['status', 'sender_lease_by'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      expect(taken).toEqual({ status: 'pending', sender_lease_by: 'instance-stopped' })
      // While the lease lasts, the other instance leaves it alone.
      expect(await alive.pass()).toMatchObject({ checked: 0, sent: 0, errors: [] })
      expect(alive.count('getLatestBlockhash')).toBe(0)
      // Then it takes it over and pays it.
      await new Promise((resolve) => setTimeout(resolve, 2_100))
      expect(await alive.pass()).toMatchObject({ checked: 1, sent: 1, errors: [] })
      expect(alive.stored).toEqual([id])
      // The stopped instance wakes up: its transaction is never stored nor sent (the row moved on meanwhile).
      release()
      expect(await hung).toMatchObject({ checked: 1, sent: 0, errors: [] })
      expect(stopped.stored).toEqual([])
      expect(stopped.count('sendTransaction')).toBe(0)
      // Its next pass finds the withdrawal the other instance's now, until that one stops passing.
      expect(await stopped.pass()).toMatchObject({ checked: 0 })
    } finally {
      release()
    }
    await drain([alive, stopped])
    expect(
      await ctx.db.selectFrom('withdrawals').select('status').where('id', '=', id).executeTakeFirstOrThrow(),
    ).toEqual({ status: 'confirmed' })
    expect(await onChain(user.wallet.address)).toBe(30n * USDT - FEE)
    expect(await checkInvariants(ctx.db)).toEqual([])
  }, 60_000)

  it('payoutStatuses answers for many payouts what payoutStatus answers for each, in one call after the height', async () => {
    const confirmed = await ctx.db
      .selectFrom('withdrawals')
      .select(['signature', 'last_valid_block_height'])
      .where('status', '=', 'confirmed')
      .executeTakeFirstOrThrow()
    // Signatures the chain never saw: one whose blockhash is long past (expired), one still valid (pending).
    const unknown = () => getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(64)))
    const payouts = [
      { signature: unknown(), lastValidBlockHeight: 1n },
      {
        signature: confirmed.signature as string,
        lastValidBlockHeight: BigInt(confirmed.last_valid_block_height as string),
      },
      { signature: unknown(), lastValidBlockHeight: 10n ** 12n },
    ]
    const { chain, calls } = countingChain(ctx)
    expect(await payoutStatuses(chain, payouts)).toEqual(['expired', 'confirmed', 'pending'])
    expect(Object.fromEntries(calls)).toEqual({ getBlockHeight: 1, getSignatureStatuses: 1 })
    for (const [i, payout] of payouts.entries())
      expect(await payoutStatus(chain, payout.signature, payout.lastValidBlockHeight)).toBe(
        ['expired', 'confirmed', 'pending'][i],
      )
    expect(await payoutStatuses(chain, [])).toEqual([])

    // Past a node's 256 signatures per getSignatureStatuses (the local chain refuses more, as nodes do): one call per
    // 256, still after one height, the answers in order.
    calls.clear()
    const many = Array.from({ length: 300 }, (_, i) => (i === 270 ? payouts[1] : payouts[i % 2 === 0 ? 0 : 2]))
    const answers = await payoutStatuses(chain, many as typeof payouts)
    expect(Object.fromEntries(calls)).toEqual({ getBlockHeight: 1, getSignatureStatuses: 2 })
    expect(answers[0]).toBe('expired')
    expect(answers[1]).toBe('pending')
    expect(answers[270]).toBe('confirmed')
    expect(answers[299]).toBe('pending')
  })
})
