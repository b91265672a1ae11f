import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { Keypair, PublicKey } from '@solana/web3.js'
import {
  type AdminAsset,
  API_BASE,
  api,
  Code,
  type ConfigVersion,
  IDEMPOTENCY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type RouteDef,
} from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { sql, type Transaction } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.ts'
import type { DB } from '../src/db/schema.ts'
import { refuse } from '../src/lib/app-error.ts'
import { lastWrite, runCommit } from '../src/lib/commit.ts'
import {
  claim,
  faults,
  finish,
  purgeIdempotencyKeys,
  RETAIN_HOURS,
  release,
  requestHash,
  storeAnswer,
  TAKEOVER_MS,
} from '../src/lib/idempotency.ts'
import { seedBusinessConfig } from '../src/modules/config/service.ts'
import { checkInvariants } from '../src/modules/ledger/service.ts'
import { allowAdmin, signedInAdmin, type TestAdmin } from './admin.ts'
import { creditAvailable, dbKind, login, TestWallet, tableNames, unflaggedMoneyRoutes } from './helpers.ts'
import { createChainApp, createIntent, pay } from './money.ts'

// Idempotency-Key (docs/money.md): every route the contract flags idempotent, through the real app, database and local
// chain; then the mechanism's own cases (waiting, takeover, faults, several instances, retention, OpenAPI).

type Ctx = Awaited<ReturnType<typeof createChainApp>>
type RouteName = keyof typeof api
type Body = Record<string, unknown>

/** Who calls: a user (session headers) or an operator of the console (admin token). */
interface Caller {
  headers: Record<string, string>
  address: string
  keypair?: Keypair
}

/** How to make one idempotent call: its callers and a fresh valid body each time (with whatever it needs set up). */
interface Case {
  /** Two different callers allowed to make the call. */
  callers: () => Promise<[Caller, Caller]>
  body: (who: Caller) => Promise<Body>
  /** Another request the caller may send: another body of the route, or (empty bodies) another route. */
  other: (who: Caller) => Promise<{ route: RouteDef; body: Body }>
  /**
   * The same body sent twice without a key takes effect twice (true: a withdrawal may be asked for twice), once
   * (false: a deposit is redeemed once), or the second call has this effect.
   */
  repeatable: boolean | Record<string, number>
  /** Each caller can make the call once (one node of a level per user): every step below takes a new caller. */
  oncePerCaller?: boolean
  /** An effect outside the database (the faucet pays on chain): a number that grows with it. */
  outside?: (who: Caller) => Promise<bigint>
}

/** The tables a money call writes (rows counted: one effect is one row more in some of them). */
const COUNTED = [
  'ledger_transfers',
  'withdrawals',
  'withdrawal_approvals',
  'stakes',
  'finance_deposits',
  'user_nodes',
  'power_events',
  'payment_intents',
  'trade_orders',
  'trade_fills',
  'config_versions',
  'asset_versions',
  'admins',
  'adjustments',
  'admin_changes',
  'admin_audit',
  'liability_snapshots',
] as const
/**
 * Tables that change without the call's effect: rate_limit_hits counts every call; job_heartbeats are written by the
 * instance's jobs on their own clock, and the live channel's tables by its publications (a trade's market figures
 * about a second after it, docs/architecture.md). Every other table (tableNames: a new one included without anyone listing
 * it) is compared.
 */
const UNCOMPARED = ['rate_limit_hits', 'job_heartbeats', 'live_outbox', 'live_topics']

describe(`Idempotency-Key on money calls (${dbKind})`, () => {
  let ctx: Ctx
  let admins: TestAdmin[]
  let operators: TestAdmin[]
  /** Asks for adjustments that wait for a second admin (it never approves them itself). */
  let requester: TestAdmin
  /** Rests a large bid at 0.2 USDT that the swaps sell into; asks for the withdrawals the operators decide. */
  let maker: Caller & { id: string }

  beforeAll(async () => {
    ctx = await createChainApp()
    await seedBusinessConfig(ctx.db)
    admins = [await signedInAdmin(ctx.app, ctx.db, 'admin'), await signedInAdmin(ctx.app, ctx.db, 'admin')]
    operators = [await signedInAdmin(ctx.app, ctx.db, 'operator'), await signedInAdmin(ctx.app, ctx.db, 'operator')]
    requester = await signedInAdmin(ctx.app, ctx.db, 'admin')
    maker = await user()
    const bid = await send(api.tradeBuy, { price: '200000', amount: String(100_000n * PLG) }, maker)
    expect(bid.json().code, bid.json().msg).toBe(Code.OK)
  }, 120_000)
  afterAll(() => ctx.close())

  /** A logged-in user holding 100 000 PLG and USDT on the platform (and SOL, tokens on chain with `onChain`). */
  async function user(onChain = false): Promise<Caller & { id: string }> {
    const wallet = new TestWallet()
    const { id, token } = (await login(ctx.app, wallet, ctx.root.address)).data as { id: string; token: string }
    await creditAvailable(ctx.db, id, 'PLG', 100_000n * PLG)
    await creditAvailable(ctx.db, id, 'USDT', 100_000n * USDT)
    const keypair = Keypair.fromSeed(wallet.secret)
    if (onChain) await ctx.localnet.faucet(wallet.address, { sol: 1_000_000_000n, tokens: { USDT: 1000n * USDT } })
    return { id, headers: { 'user-token': token, 'user-address': wallet.address }, address: wallet.address, keypair }
  }
  const users = async (onChain = false): Promise<[Caller, Caller]> => [await user(onChain), await user(onChain)]
  const asCaller = (a: TestAdmin): Caller => ({ headers: a.headers.headers, address: a.address })

  /** POSTs a route as `who`, with extra headers (the key); the raw response. */
  const send = (route: RouteDef, body: Body, who: Caller, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: API_BASE + route.path,
      payload: body,
      headers: { 'accept-language': 'en', ...who.headers, ...headers },
    })
  const ok = async (route: RouteDef, body: Body, who: Caller) => {
    const res = (await send(route, body, who)).json()
    expect(res.code, res.msg).toBe(Code.OK)
    return res.data as { id: string }
  }

  /** Row counts of the money tables, and with `digest` a digest of every table. */
  async function snapshot(outside?: () => Promise<bigint>, digest = false) {
    const hash = digest ? sql`md5(coalesce(string_agg(x::text, '|' order by x::text), ''))` : sql`''`
    const compared = (await tableNames(ctx.db)).filter((t) => !UNCOMPARED.includes(t))
    const { rows } = await sql<{ t: string; n: number; h: string }>`${sql.join(
      (digest ? compared : COUNTED).map(
        (t) => sql`select ${t} as t, count(*)::int as n, ${hash} as h from ${sql.table(t)} x`,
      ),
      sql` union all `,
    )}`.execute(ctx.db)
    const counts: Record<string, number> = {}
    for (const row of rows) if ((COUNTED as readonly string[]).includes(row.t)) counts[row.t] = row.n
    if (outside) counts.outside = Number(await outside())
    return { counts, digest: rows.map((r) => r.h).join() }
  }
  type Snapshot = Awaited<ReturnType<typeof snapshot>>
  /** What changed between two snapshots, per counted table. */
  const delta = (a: Snapshot, b: Snapshot) =>
    Object.fromEntries(
      Object.keys(b.counts)
        .map((t) => [t, (b.counts[t] ?? 0) - (a.counts[t] ?? 0)] as const)
        .filter(([, n]) => n !== 0),
    )
  const unchanged = (a: Snapshot, b: Snapshot) => expect(b).toEqual(a)

  const expiredDeposit = async (who: Caller) => {
    const { id } = await ok(api.financeDeposit, { days: 7, amount: String(100n * USDT) }, who)
    await ctx.db
      .updateTable('finance_deposits')
      .set({ status: 'expired', expired_at: new Date() })
      .where('id', '=', id)
      .execute()
    return { id }
  }
  const restingSell = async (who: Caller) => ({
    id: (await ok(api.tradeSell, { price: '900000', amount: String(PLG) }, who)).id,
  })
  /** A withdrawal of the maker's, waiting for review (the operators decide it). */
  const inReview = async () => {
    await creditAvailable(ctx.db, maker.id, 'USDT', 10_000n * USDT)
    const { id } = await ok(api.withdraw, { coin: 'USDT', amount: String(10_000n * USDT) }, maker)
    return { id }
  }
  const pendingAdjustment = async () => {
    const body = { address: maker.address, coin: 'USDT', amount: '2000', reason: 'goodwill credit' }
    const { id } = await ok(api.adminAdjust, body, asCaller(requester))
    return id
  }
  /** A change of the allow-list proposed by the requester, waiting for a second admin (there are several admins). */
  const pendingChange = async () =>
    (await ok(api.adminAdminSave, { address: new TestWallet().address, role: 'viewer' }, asCaller(requester))).id
  /** A settlement day the circuit breaker holds (a new one each time), for its release. */
  let heldDays = 0
  const heldDay = async () => {
    const day = `2024-01-${String(++heldDays).padStart(2, '0')}`
    await ctx.db
      .insertInto('settlement_runs')
      .values({
        day,
        status: 'held',
        phase: 'pay',
        summary: JSON.stringify({
          pool: '0',
          referral: [],
          expired: { stakes: 0, finance: 0 },
          hold: { at: '2025-01-02T00:00:00.000Z', reasons: [] },
        }),
      })
      .execute()
    return { day }
  }
  /** A campaign that has ended (a new one each time), whose one tier every user reaches: a junior node each. */
  const endedCampaign = async () => {
    const { id } = await ok(
      api.adminCampaignSave,
      {
        translations: [{ lang: 'en', title: 'Summit', body: '<p>Join us.</p>' }],
        starts_at: new Date(Date.now() + 60_000).toISOString(),
        ends_at: new Date(Date.now() + 86_400_000).toISOString(),
        tiers: [{ min_direct: 0, min_fuel: '0', reward: { kind: 'node', level: 'junior' } }],
      },
      asCaller(requester),
    )
    await ctx.db
      .updateTable('campaigns')
      .set({ starts_at: new Date(Date.now() - 7_200_000), ends_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute()
    return { id }
  }
  const paidIntent = async (who: Caller) => {
    const auth = { token: who.headers['user-token'] as string, address: who.address }
    const intent = await createIntent(ctx, auth, 'USDT', USDT)
    return { id: intent.id, signature: await pay(ctx.connection, who.keypair as Keypair, intent) }
  }
  const currentConfig = async () =>
    (await send(api.adminConfig, {}, asCaller(admins[0] as TestAdmin))).json().data as ConfigVersion
  let minUsdt = 100n
  const configBody = async () => {
    const config = await currentConfig()
    minUsdt += 1n
    return {
      base_version: config.id,
      value: { ...config.value, pledge: { ...config.value.pledge, minUsdt: String(minUsdt * USDT) } },
    }
  }
  let fee = 1n
  const assetBody = async () => {
    const list = (await send(api.adminAssets, {}, asCaller(admins[0] as TestAdmin))).json().data.list as AdminAsset[]
    const {
      symbol: _s,
      decimals: _d,
      mint: _m,
      version,
      updated_by: _u,
      updated_at: _a,
      ...settings
    } = list.find((a) => a.coin === 'PLG') as AdminAsset
    fee += 1n
    // In PLG, as the console types it.
    return { ...settings, base_version: version, withdraw_fee: String(fee) }
  }
  const adminPair = async (): Promise<[Caller, Caller]> => [
    asCaller(admins[0] as TestAdmin),
    asCaller(admins[1] as TestAdmin),
  ]

  const cases: Partial<Record<RouteName, Case>> = {
    intentCreate: {
      callers: () => users(),
      body: async () => ({ purpose: 'recharge', coin: 'USDT', amount: String(5n * USDT) }),
      other: async () => ({ route: api.intentCreate, body: { purpose: 'recharge', coin: 'USDT', amount: '7' } }),
      repeatable: true,
    },
    intentSubmit: {
      callers: () => users(true),
      body: paidIntent,
      other: async (who) => ({ route: api.intentSubmit, body: await paidIntent(who) }),
      // A payment is credited once whatever the key: the signature is unique.
      repeatable: false,
    },
    faucet: {
      callers: () => users(),
      body: async () => ({}),
      other: async () => ({ route: api.withdraw, body: { coin: 'USDT', amount: String(20n * USDT) } }),
      repeatable: true,
      outside: async (who) => BigInt(await ctx.connection.getBalance(new PublicKey(who.address), 'confirmed')),
    },
    withdraw: {
      callers: () => users(),
      body: async () => ({ coin: 'USDT', amount: String(20n * USDT) }),
      other: async () => ({ route: api.withdraw, body: { coin: 'USDT', amount: String(30n * USDT) } }),
      repeatable: true,
    },
    pledgeStake: {
      callers: () => users(),
      body: async () => ({ amount: String(300n * PLG), days: 30 }),
      other: async () => ({ route: api.pledgeStake, body: { amount: String(300n * PLG), days: 90 } }),
      repeatable: true,
    },
    nodeBuy: {
      callers: () => users(),
      body: async () => ({ level: 'junior', pay: 'balance' }),
      other: async () => ({ route: api.nodeBuy, body: { level: 'senior', pay: 'balance' } }),
      // One node of a level per user.
      repeatable: false,
      oncePerCaller: true,
    },
    financeDeposit: {
      callers: () => users(),
      body: async () => ({ days: 7, amount: String(100n * USDT) }),
      other: async () => ({ route: api.financeDeposit, body: { days: 30, amount: String(100n * USDT) } }),
      repeatable: true,
    },
    financeRedeem: {
      callers: () => users(),
      body: expiredDeposit,
      other: async (who) => ({ route: api.financeRedeem, body: await expiredDeposit(who) }),
      repeatable: false,
    },
    tradeSell: {
      callers: () => users(),
      body: async () => ({ price: '900000', amount: String(PLG) }),
      other: async () => ({ route: api.tradeSell, body: { price: '900000', amount: String(2n * PLG) } }),
      repeatable: true,
    },
    tradeBuy: {
      callers: () => users(),
      body: async () => ({ price: '100000', amount: String(PLG) }),
      other: async () => ({ route: api.tradeBuy, body: { price: '100100', amount: String(PLG) } }),
      repeatable: true,
    },
    tradeCancel: {
      callers: () => users(),
      body: restingSell,
      other: async (who) => ({ route: api.tradeCancel, body: await restingSell(who) }),
      repeatable: false,
    },
    swap: {
      callers: () => users(),
      body: async () => ({ from: 'PLG', amount: String(PLG), min_received: '0' }),
      other: async () => ({ route: api.swap, body: { from: 'PLG', amount: String(2n * PLG), min_received: '0' } }),
      repeatable: true,
    },
    adminAdminSave: {
      callers: adminPair,
      body: async () => ({ address: new TestWallet().address, role: 'viewer' }),
      other: async () => ({ route: api.adminAdminSave, body: { address: new TestWallet().address, role: 'viewer' } }),
      // With several admins, adding anyone is a proposal for a second admin: the same proposal again is another one.
      repeatable: true,
    },
    adminAdminRemove: {
      callers: adminPair,
      body: async () => ({ address: (await allowAdmin(ctx.db, 'viewer')).address }),
      other: async () => ({
        route: api.adminAdminRemove,
        body: { address: (await allowAdmin(ctx.db, 'viewer')).address },
      }),
      repeatable: false,
    },
    adminConfigSave: {
      callers: adminPair,
      body: configBody,
      other: async () => ({ route: api.adminConfigSave, body: await configBody() }),
      // The second save names a base version that is no longer the newest.
      repeatable: false,
    },
    adminAssetSave: {
      callers: adminPair,
      body: assetBody,
      other: async () => ({ route: api.adminAssetSave, body: await assetBody() }),
      repeatable: false,
    },
    adminWithdrawalApprove: {
      callers: async () => [asCaller(operators[0] as TestAdmin), asCaller(operators[1] as TestAdmin)],
      body: inReview,
      other: async () => ({ route: api.adminWithdrawalApprove, body: await inReview() }),
      repeatable: false,
    },
    adminWithdrawalReject: {
      callers: async () => [asCaller(operators[0] as TestAdmin), asCaller(operators[1] as TestAdmin)],
      body: async () => ({ ...(await inReview()), reason: 'address on a sanctions list' }),
      other: async () => ({
        route: api.adminWithdrawalReject,
        body: { ...(await inReview()), reason: 'address on a sanctions list' },
      }),
      repeatable: false,
    },
    adminAdjust: {
      callers: adminPair,
      body: async () => ({ address: maker.address, coin: 'USDT', amount: '5', reason: 'goodwill' }),
      other: async () => ({
        route: api.adminAdjust,
        body: { address: maker.address, coin: 'USDT', amount: '-5', reason: 'goodwill' },
      }),
      repeatable: true,
    },
    adminAdjustApprove: {
      callers: adminPair,
      body: async () => ({ id: await pendingAdjustment() }),
      other: async () => ({ route: api.adminAdjustApprove, body: { id: await pendingAdjustment() } }),
      repeatable: false,
    },
    adminChangeApprove: {
      callers: adminPair,
      body: async () => ({ id: await pendingChange() }),
      other: async () => ({ route: api.adminChangeApprove, body: { id: await pendingChange() } }),
      repeatable: false,
    },
    adminChangeReject: {
      callers: adminPair,
      body: async () => ({ id: await pendingChange(), reason: 'not agreed' }),
      other: async () => ({
        route: api.adminChangeReject,
        body: { id: await pendingChange(), reason: 'not agreed' },
      }),
      repeatable: false,
    },
    adminPolSnapshot: {
      callers: adminPair,
      body: async () => ({}),
      other: async () => ({ route: api.adminAssetSave, body: await assetBody() }),
      // An operator may take another snapshot whenever they like.
      repeatable: true,
    },
    adminSettlementRelease: {
      callers: adminPair,
      body: heldDay,
      other: async () => ({ route: api.adminSettlementRelease, body: await heldDay() }),
      // With several admins, a release is a proposal for a second admin: the same proposal again is another one.
      repeatable: true,
    },
    adminCampaignGrant: {
      callers: adminPair,
      body: endedCampaign,
      other: async () => ({ route: api.adminCampaignGrant, body: await endedCampaign() }),
      // A campaign's rewards are proposed once: granting it again finds them, and is audited as a grant of none.
      repeatable: { admin_audit: 1 },
    },
    adminAdjustReject: {
      callers: adminPair,
      body: async () => ({ id: await pendingAdjustment(), reason: 'not agreed' }),
      other: async () => ({
        route: api.adminAdjustReject,
        body: { id: await pendingAdjustment(), reason: 'not agreed' },
      }),
      repeatable: false,
    },
  }

  const flagged = (Object.keys(api) as RouteName[]).filter((name) => (api[name] as RouteDef).idempotent)

  // Which routes move money is found from what they do: every test app reports a route that wrote the ledger without
  // the flag (helpers.ts). Every flagged route has a case below.
  it('every route flagged as moving money or money state has a case below, and docs/money.md lists them', () => {
    expect(flagged.filter((name) => !cases[name])).toEqual([])
    const doc = fs.readFileSync(new URL('../../../docs/money.md', import.meta.url), 'utf8')
    const rows = doc.slice(doc.indexOf('| Caller | Routes |')).split('\n\n')[0] as string
    expect([...rows.matchAll(/`(\w+)`/g)].map((m) => m[1]).sort()).toEqual([...flagged].sort())
  })

  it('a route that moves money without the flag is reported by the probe every test app carries', async () => {
    const route = api.pledgeStake as { idempotent?: boolean; path: string }
    const [who] = await (cases.pledgeStake as Case).callers()
    const body = await (cases.pledgeStake as Case).body(who)
    try {
      route.idempotent = false
      const res = (await send(api.pledgeStake, body, who)).json()
      expect(res.code, res.msg).toBe(Code.OK)
    } finally {
      route.idempotent = true
    }
    expect([...unflaggedMoneyRoutes]).toEqual([route.path])
    unflaggedMoneyRoutes.clear()
  })

  it.each(flagged)(
    '%s: retry, concurrent repeats, another request, bad keys, no key, two callers',
    async (name) => {
      const route = api[name] as RouteDef
      const c = cases[name] as Case
      let [a, b] = await c.callers()
      /** The caller of the next step. */
      const next = async () => {
        if (c.oncePerCaller) [a, b] = await c.callers()
      }
      const { outside } = c
      const snap = (who: Caller, digest = false) => snapshot(outside && (() => outside(who)), digest)
      const keyed = (body: Body, who: Caller, key: string) => send(route, body, who, { [IDEMPOTENCY_HEADER]: key })

      // (1) A retry answers the first answer again, byte for byte, and does nothing.
      const key = `${name}-`.padEnd(255, 'k')
      const body = await c.body(a)
      const before = await snap(a)
      const answer = await keyed(body, a, key)
      const first = a
      expect(answer.json().code, answer.json().msg).toBe(Code.OK)
      expect(answer.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBeUndefined()
      const afterFirst = await snap(a, true)
      const effect = delta(before, afterFirst)
      expect(Object.keys(effect).length, 'the call has an effect').toBeGreaterThan(0)
      for (const lang of ['en', 'zh']) {
        const again = await send(route, body, a, { [IDEMPOTENCY_HEADER]: key, 'accept-language': lang })
        expect(again.statusCode).toBe(answer.statusCode)
        expect(again.body).toBe(answer.body)
        expect(again.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBe('true')
      }
      unchanged(afterFirst, await snap(a, true))

      // (2) Concurrent repeats of a new key: one runs, all get its answer, one effect.
      await next()
      const burstKey = randomUUID()
      const burstBody = await c.body(a)
      const beforeBurst = await snap(a)
      const burst = await Promise.all(Array.from({ length: 5 }, () => keyed(burstBody, a, burstKey)))
      expect(burst[0]?.json().code).toBe(Code.OK)
      expect(new Set(burst.map((r) => r.body)).size).toBe(1)
      expect(burst.filter((r) => r.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()] === 'true')).toHaveLength(4)
      expect(delta(beforeBurst, await snap(a))).toEqual(effect)

      // (3) The key of another request: refused, nothing done.
      const other = await c.other(first)
      const badBody = await c.body(a)
      const beforeRefusals = await snap(first, true)
      const reused = await send(other.route, other.body, first, { [IDEMPOTENCY_HEADER]: key })
      expect(reused.json()).toEqual({
        code: Code.INVALID,
        msg: 'This Idempotency-Key was already used for a different request',
        key: 'error.idempotencyKeyReused',
        data: null,
      })

      // (4) Keys that are not 1–255 visible ASCII characters: refused, nothing done.
      for (const bad of ['', 'two words', 'k'.repeat(256), 'clé']) {
        const res = await keyed(badBody, a, bad)
        expect(res.json(), JSON.stringify(bad)).toEqual({
          code: Code.INVALID,
          msg: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters',
          key: 'error.idempotencyKeyInvalid',
          data: null,
        })
      }
      unchanged(beforeRefusals, await snap(first, true))

      // (5) Without a key the call works as before: the same body twice takes effect twice where the business allows.
      await next()
      const plain = await c.body(a)
      const beforePlain = await snap(a)
      const p1 = (await send(route, plain, a)).json()
      expect(p1.code, p1.msg).toBe(Code.OK)
      const afterP1 = await snap(a)
      expect(delta(beforePlain, afterP1)).toEqual(effect)
      await send(route, plain, a)
      const again = c.repeatable === true ? effect : c.repeatable === false ? {} : c.repeatable
      expect(delta(afterP1, await snap(a))).toEqual(again)

      // (6) The same key from another caller is another request.
      await next()
      const shared = randomUUID()
      const forA = await c.body(a)
      const beforeA = await snap(a)
      expect((await keyed(forA, a, shared)).json().code).toBe(Code.OK)
      expect(delta(beforeA, await snap(a))).toEqual(effect)
      const forB = await c.body(b)
      const beforeB = await snap(b)
      const resB = await keyed(forB, b, shared)
      expect(resB.json().code, resB.json().msg).toBe(Code.OK)
      expect(resB.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBeUndefined()
      expect(delta(beforeB, await snap(b))).toEqual(effect)

      // (7) The process dies right after the call committed, before its answer leaves (the fault-injection point
      // after the commit): the work is done once, and the retry replays the answer stored with it, byte for byte.
      await next()
      const crashKey = randomUUID()
      const crashBody = await c.body(a)
      const beforeCrash = await snap(a)
      const lost = await crashAfterCommit(crashKey, () => keyed(crashBody, a, crashKey))
      expect(lost.statusCode).toBe(500)
      expect(delta(beforeCrash, await snap(a))).toEqual(effect)
      const retried = await keyed(crashBody, a, crashKey)
      expect(retried.json().code, retried.json().msg).toBe(Code.OK)
      expect(retried.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBe('true')
      expect((await keyed(crashBody, a, crashKey)).body).toBe(retried.body)
      expect(delta(beforeCrash, await snap(a))).toEqual(effect)

      expect(await checkInvariants(ctx.db)).toEqual([])
    },
    60_000,
  )

  /**
   * Runs `request` as if the process died right after its call committed: the fault-injection point throws for `key`,
   * so the answer never leaves (the client sees a fault) and nothing after the commit runs for it.
   */
  async function crashAfterCommit<T>(key: string, request: () => Promise<T>): Promise<T> {
    let reached = false
    faults.afterCommit = (call) => {
      if (call.key !== key) return
      reached = true
      throw new Error('the process died here')
    }
    try {
      return await request()
    } finally {
      faults.afterCommit = undefined
      expect(reached, 'the call reached the point after its commit').toBe(true)
    }
  }

  it('a refusal that keeps what its transaction wrote is stored with it: a stale change, after a crash', async () => {
    const [first, second] = await adminPair()
    const id = await pendingChange()
    const change = await ctx.db
      .selectFrom('admin_changes')
      .select('target')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    // Meanwhile the operator the change would add was added another way: the change is stale.
    await ctx.db
      .insertInto('admins')
      .values({ address: change.target.replace(/^admin:/, ''), role: 'viewer', source: 'console', added_by: 'test' })
      .execute()
    const key = randomUUID()
    const approve = (who: Caller) => send(api.adminChangeApprove, { id }, who, { [IDEMPOTENCY_HEADER]: key })
    expect((await crashAfterCommit(key, () => approve(first as Caller))).statusCode).toBe(500)
    const closed = await ctx.db
      .selectFrom('admin_changes')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(closed.status).toBe('stale')
    const retried = await approve(first as Caller)
    expect(retried.json()).toMatchObject({ code: Code.FAIL, key: 'admin.changeStale' })
    expect(retried.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBe('true')
    // Without the key it is another request: the change is closed.
    expect((await send(api.adminChangeApprove, { id }, second as Caller)).json()).toMatchObject({
      key: 'admin.changeNotPending',
    })
  })

  it('20 concurrent repeats of a withdrawal, a stake and a sell: one effect each, one answer', async () => {
    const who = await user()
    for (const [route, body, table] of [
      [api.withdraw, { coin: 'USDT', amount: String(20n * USDT) }, 'withdrawals'],
      [api.pledgeStake, { amount: String(300n * PLG), days: 30 }, 'stakes'],
      [api.tradeSell, { price: '900000', amount: String(PLG) }, 'trade_orders'],
    ] as const) {
      const count = async () =>
        (await ctx.db.selectFrom(table).select('id').where('user_id', '=', who.id).execute()).length
      const before = await count()
      const key = randomUUID()
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => send(route, body, who, { [IDEMPOTENCY_HEADER]: key })),
      )
      expect(answers[0]?.json().code, route.path).toBe(Code.OK)
      expect(new Set(answers.map((r) => r.body)).size, route.path).toBe(1)
      expect(await count(), route.path).toBe(before + 1)
    }
    expect(await checkInvariants(ctx.db)).toEqual([])
  })

  /** A withdrawal request with a key: the way a user's double tap arrives. */
  const withdrawBody = { coin: 'USDT', amount: String(20n * USDT) }
  const withdrawals = async (who: Caller) =>
    (await ctx.db.selectFrom('withdrawals').select('id').where('to_address', '=', who.address).execute()).length

  it('a repeat waits while the first request runs, then gets its answer', async () => {
    const who = await user()
    const caller = `user:${who.id}`
    const key = randomUUID()
    // Another instance claimed the key and is still working on it.
    const claimed = await claim(ctx.db, caller, key, requestHash(api.withdraw.path, {}, withdrawBody))
    expect(claimed).toMatchObject({ run: true, caller, key })
    const repeat = send(api.withdraw, withdrawBody, who, { [IDEMPOTENCY_HEADER]: key })
    const stored = JSON.stringify({ code: Code.OK, msg: 'stored answer', data: null })
    if (!claimed.run) throw new Error('not claimed')
    await finish(ctx.db, claimed, 200, stored)
    const res = await repeat
    expect(res.body).toBe(stored)
    expect(res.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBe('true')
    expect(await withdrawals(who)).toBe(0)
  })

  it('a claim left running by a dead process is taken over after TAKEOVER_MS, by one of the repeats', async () => {
    const who = await user()
    const caller = `user:${who.id}`
    const key = randomUUID()
    await claim(ctx.db, caller, key, requestHash(api.withdraw.path, {}, withdrawBody))
    await ctx.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - TAKEOVER_MS - 5000) })
      .where('key', '=', key)
      .execute()
    const [x, y] = await Promise.all(
      [0, 1].map(() => send(api.withdraw, withdrawBody, who, { [IDEMPOTENCY_HEADER]: key })),
    )
    expect(x?.json().code).toBe(Code.OK)
    expect(y?.body).toBe(x?.body)
    expect(await withdrawals(who)).toBe(1)
  })

  it('an attempt outlived by a takeover cannot store its answer: its effects roll back, also in a trade batch', async () => {
    const who = await user()
    const caller = `user:${who.id}`
    const key = randomUUID()
    const hash = requestHash(api.withdraw.path, {}, withdrawBody)
    const first = await claim(ctx.db, caller, key, hash)
    // The first attempt runs longer than TAKEOVER_MS: a repeat takes the key over.
    await ctx.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - TAKEOVER_MS - 5000) })
      .where('key', '=', key)
      .execute()
    const second = await claim(ctx.db, caller, key, hash)
    if (!first.run || !second.run) throw new Error('both attempts should have run')
    // The first attempt's work and answer, in one transaction: refused, its withdrawal not stored.
    const work = (trx: Transaction<DB>) =>
      trx
        .insertInto('withdrawals')
        .values({ user_id: who.id, asset: 'USDT', amount: '20', fee: '0', to_address: who.address, status: 'review' })
        .execute()
    const late = runCommit(ctx.db, work, (trx) => storeAnswer(trx, first, 200, 'the late answer'))
    await expect(late).rejects.toMatchObject({ key: 'error.idempotencyInProgress' })
    // Nor can it answer or free the key outside a transaction.
    await finish(ctx.db, first, 200, 'the late answer')
    await release(ctx.db, first)
    expect(await withdrawals(who)).toBe(0)
    await runCommit(ctx.db, work, (trx) => storeAnswer(trx, second, 200, 'the answer'))
    const row = await ctx.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst()
    expect(row).toMatchObject({ state: 'done', response: 'the answer' })
    expect(await withdrawals(who)).toBe(1)

    // In a trade batch, the command whose answer cannot be stored is refused alone; the others commit.
    const seller = await user()
    const sell = (price: bigint) => ({ userId: BigInt(seller.id), side: 'sell' as const, price, amount: PLG })
    const [refused, placed] = await Promise.allSettled([
      ctx.app.trade.placeLimit(sell(900_000n), () => Promise.reject(refuse('error.idempotencyInProgress'))),
      ctx.app.trade.placeLimit(sell(900_100n), async (_trx, order) => order),
    ])
    expect(refused).toMatchObject({ status: 'rejected', reason: { key: 'error.idempotencyInProgress' } })
    expect(placed).toMatchObject({ status: 'fulfilled', value: { price: 900_100n } })
    const orders = await ctx.db.selectFrom('trade_orders').select('price').where('user_id', '=', seller.id).execute()
    expect(orders).toEqual([{ price: '900100' }])
  })

  it('a last write runs after the answer is stored, right before the COMMIT; when it fails nothing commits', async () => {
    const who = await user()
    const withdrawal = (trx: Transaction<DB>) =>
      trx
        .insertInto('withdrawals')
        .values({ user_id: who.id, asset: 'USDT', amount: '20', fee: '0', to_address: who.address, status: 'review' })
        .execute()
    const order: string[] = []
    await runCommit(
      ctx.db,
      async (trx) => {
        await lastWrite(trx, async () => order.push('first last write'))
        await lastWrite(trx, async () => {
          order.push('second last write')
          await withdrawal(trx)
        })
        order.push('work')
      },
      async () => {
        order.push('answer')
      },
    )
    expect(order).toEqual(['work', 'answer', 'first last write', 'second last write'])
    expect(await withdrawals(who)).toBe(1)
    // A last write that fails rolls back the work and the answer with it.
    const failing = runCommit(
      ctx.db,
      async (trx) => {
        await withdrawal(trx)
        await lastWrite(trx, () => Promise.reject(refuse('common.insufficientBalance')))
      },
      (trx) => withdrawal(trx).then(() => undefined),
    )
    await expect(failing).rejects.toMatchObject({ key: 'common.insufficientBalance' })
    expect(await withdrawals(who)).toBe(1)
    // In a transaction runCommit does not run, a last write is made at once.
    await ctx.db.transaction().execute(async (trx) => {
      await lastWrite(trx, async () => order.push('at once'))
      order.push('after it')
    })
    expect(order.slice(-2)).toEqual(['at once', 'after it'])
  })

  it('an unexpected fault (5xx) frees the key: the retry runs again', async () => {
    const who = await user()
    const key = randomUUID()
    const platform = ctx.platform as { rpcUrl: string }
    const rpcUrl = platform.rpcUrl
    platform.rpcUrl = 'http://127.0.0.1:9'
    try {
      for (let i = 0; i < 2; i++) {
        const res = await send(api.faucet, {}, who, { [IDEMPOTENCY_HEADER]: key })
        expect(res.statusCode).toBe(500)
        expect(res.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBeUndefined()
      }
    } finally {
      platform.rpcUrl = rpcUrl
    }
    expect(await ctx.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute()).toEqual([])
    const res = await send(api.faucet, {}, who, { [IDEMPOTENCY_HEADER]: key })
    expect(res.json().code).toBe(Code.OK)
  })

  it('two server instances on one database share the keys', async () => {
    const second = await buildApp({ db: ctx.db, config: ctx.app.config, platform: ctx.platform })
    await second.ready()
    try {
      const who = await user()
      const key = randomUUID()
      const answers = await Promise.all(
        [ctx.app, second, ctx.app, second].map((app) =>
          app.inject({
            method: 'POST',
            url: API_BASE + api.withdraw.path,
            payload: withdrawBody,
            headers: { ...who.headers, [IDEMPOTENCY_HEADER]: key },
          }),
        ),
      )
      expect(new Set(answers.map((r) => r.body)).size).toBe(1)
      expect(answers[0]?.json().code).toBe(Code.OK)
      expect(await withdrawals(who)).toBe(1)
    } finally {
      await second.close()
    }
  })

  it('a refusal is the answer to its key: replayed after the balance would allow it, nothing done', async () => {
    const who = await user()
    const key = randomUUID()
    const tooMuch = { coin: 'USDT', amount: String(200_000n * USDT) }
    const refused = await send(api.withdraw, tooMuch, who, { [IDEMPOTENCY_HEADER]: key })
    expect(refused.json()).toMatchObject({ code: Code.FAIL, msg: 'Insufficient balance.' })
    await creditAvailable(ctx.db, who.id, 'USDT', 200_000n * USDT)
    const again = await send(api.withdraw, tooMuch, who, { [IDEMPOTENCY_HEADER]: key })
    expect(again.body).toBe(refused.body)
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBe('true')
    expect(await withdrawals(who)).toBe(0)
    // A new action takes a new key.
    expect((await send(api.withdraw, tooMuch, who, { [IDEMPOTENCY_HEADER]: randomUUID() })).json().code).toBe(Code.OK)
  })

  it('the header sent twice is refused, nothing done', async () => {
    const who = await user()
    const res = await ctx.app.inject({
      method: 'POST',
      url: API_BASE + api.withdraw.path,
      payload: withdrawBody,
      headers: { ...who.headers, [IDEMPOTENCY_HEADER]: ['one', 'two'] },
    })
    expect(res.json()).toMatchObject({ code: Code.INVALID, data: null })
    expect(await withdrawals(who)).toBe(0)
  })

  it('a route that does not move money ignores the header', async () => {
    const res = await send(api.userWallet, {}, await user(), { [IDEMPOTENCY_HEADER]: 'not a key' })
    expect(res.json().code).toBe(Code.OK)
  })

  it(`keys are kept ${RETAIN_HOURS} h, then purged`, async () => {
    const keep = randomUUID()
    const old = randomUUID()
    for (const key of [keep, old]) await claim(ctx.db, 'operator', key, 'h')
    await ctx.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - (RETAIN_HOURS + 1) * 3_600_000) })
      .where('key', '=', old)
      .execute()
    await purgeIdempotencyKeys(ctx.db)
    const left = await ctx.db.selectFrom('idempotency_keys').select('key').where('key', 'in', [keep, old]).execute()
    expect(left.map((r) => r.key)).toEqual([keep])
  })

  it('OpenAPI documents the header on exactly the idempotent routes, and the replay header', () => {
    type Post = { parameters?: { in: string; name: string }[]; responses: Record<string, { headers?: object }> }
    const doc = ctx.app.swagger() as { paths: Record<string, { post?: Post }> }
    for (const name of Object.keys(api) as RouteName[]) {
      const route = api[name] as RouteDef
      const post = doc.paths[API_BASE + route.path.replace(/:(\w+)/g, '{$1}')]?.post
      const header = post?.parameters?.some((p) => p.in === 'header' && p.name === IDEMPOTENCY_HEADER.toLowerCase())
      expect(Boolean(header), name).toBe(Boolean(route.idempotent))
      expect(IDEMPOTENT_REPLAYED_HEADER in (post?.responses['200']?.headers ?? {}), name).toBe(
        Boolean(route.idempotent),
      )
    }
  })
})
