import { api, type BusinessConfig, Code, type SettlementDay } from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import type { Kysely } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/index.ts'
import * as settlementPerf from '../src/db/migrations/0014-settlement-perf.ts'
import { addDays, daysBetween } from '../src/lib/day.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { getBusinessConfig } from '../src/modules/config/service.ts'
import { balances, checkInvariants } from '../src/modules/ledger/service.ts'
import { powerOf } from '../src/modules/power/service.ts'
import { firstUnsettledDay, settleDue, settleThrough } from '../src/modules/settlement/service.ts'
import {
  addDeposit,
  addNode,
  addStake,
  addUser,
  PLG_CODE,
  paymentsFor,
  type Scenario,
  seedScenario,
  settlementState,
  storeConfig,
  UNGUARDED,
  USDT_CODE,
} from './fixtures/settlement.ts'
import {
  addOffChainAssets,
  call,
  createTestApp,
  dbKind,
  freshDatabase,
  realCluster,
  sized,
  type TestContext,
} from './helpers.ts'

const DAY = '2025-03-10'
const settle = (db: Database, day: string, batchSize = 3) => settleThrough(db, day, { product: PLG_CODE, batchSize })

/** Each test gets its own database: settlement state (runs, cursors) is database-wide. */
let cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})
/** A database with the demo configuration and `config`; the referral guard and the circuit breaker off unless given. */
async function database(config?: Partial<BusinessConfig>): Promise<Database> {
  const { db, drop } = await freshDatabase()
  cleanup.push(drop)
  await addOffChainAssets(db)
  await storeConfig(db, { ...DEFAULT_BUSINESS_CONFIG, ...UNGUARDED, ...config })
  return db
}

const stakeRow = (db: Database, id: string) =>
  db.selectFrom('stakes').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const outputs = (db: Database, type: string, parentId?: string) =>
  db
    .selectFrom('output_records')
    .selectAll()
    .where('type', '=', type as never)
    .$if(parentId !== undefined, (qb) => qb.where('parent_id', '=', parentId as string))
    .orderBy('day')
    .execute()
const sumOf = (rows: { amount: string }[]) => rows.reduce((s, r) => s + BigInt(r.amount), 0n)
/**
 * Checks what a day's run judged by at its check (its summary's totals per asset) and what its report says (count and
 * sum per type and asset) against the day's records themselves.
 */
async function expectTotalsOfRecords(db: Database, report: SettlementDay) {
  const { day } = report
  const run = await db.selectFrom('settlement_runs').select('summary').where('day', '=', day).executeTakeFirstOrThrow()
  const records = await db
    .selectFrom('output_records')
    .select([
      'type',
      'asset',
      (eb) => eb.fn.countAll<string>().as('count'),
      (eb) => eb.fn.sum<string>('amount').as('sum'),
    ])
    .where('day', '=', day)
    .groupBy(['type', 'asset'])
    .execute()
  const perAsset = new Map<string, bigint>()
  for (const r of records) perAsset.set(r.asset, (perAsset.get(r.asset) ?? 0n) + BigInt(r.sum))
  expect(new Map(Object.entries((run.summary as { totals?: Record<string, string> }).totals ?? {})), day).toEqual(
    new Map([...perAsset].map(([asset, total]) => [asset, total.toString()])),
  )
  expect(
    report.totals.map((t) => [t.type, t.coin, t.count, t.amount]),
    day,
  ).toEqual(
    records
      .map((r) => [r.type, r.asset, Number(r.count), String(r.sum)])
      .sort((a, b) => (`${a[0]} ${a[1]}` < `${b[0]} ${b[1]}` ? -1 : 1)),
  )
  return records.length
}
const expectSound = async (db: Database) => expect(await checkInvariants(db)).toEqual([])

/**
 * Checks day `day`'s pledge output and referral reward records against a plain computation from the scenario alone:
 * each member's output from its stakes' terms, then floor(output × rate / 10000) to the ancestor at each configured
 * level (walking the parents one by one), summed per ancestor. Returns how many users were rewarded.
 */
async function expectReferralsAsReference(
  db: Database,
  scenario: Scenario,
  day: string,
  rates: { level: number; rateBps: number }[],
): Promise<number> {
  const parent = new Map(scenario.users.map((u) => [u.id, u.parent]))
  const output = new Map<string, bigint>()
  for (const s of scenario.stakes) {
    const index = daysBetween(s.startDay, day)
    if (index < 1 || index > s.days) continue
    const share = s.totalOutput / BigInt(s.days)
    const amount = index < s.days ? share : s.totalOutput - share * BigInt(s.days - 1)
    output.set(s.userId, (output.get(s.userId) ?? 0n) + amount)
  }
  const expected = new Map<string, bigint>()
  for (const [member, amount] of output) {
    let ancestor = parent.get(member) ?? null
    for (let level = 1; ancestor !== null; level++) {
      const rate = rates.find((r) => r.level === level)
      if (rate) {
        const reward = (amount * BigInt(rate.rateBps)) / 10_000n
        if (reward > 0n) expected.set(ancestor, (expected.get(ancestor) ?? 0n) + reward)
      }
      ancestor = parent.get(ancestor) ?? null
    }
  }
  const perMember = new Map<string, bigint>()
  for (const r of await outputs(db, 'pledge_output'))
    if (r.day === day) perMember.set(r.user_id, (perMember.get(r.user_id) ?? 0n) + BigInt(r.amount))
  expect(perMember, day).toEqual(new Map([...output].filter(([, v]) => v > 0n)))
  const rewards = (await outputs(db, 'referral_reward')).filter((r) => r.day === day)
  expect(new Map(rewards.map((r) => [r.user_id, BigInt(r.amount)])), day).toEqual(expected)
  return expected.size
}

describe(`daily settlement (${dbKind})`, () => {
  it('releases floor(total/days) a day and the remainder on the last day: exact, never above the total', async () => {
    const db = await database({ referralRewards: [] })
    const user = await addUser(db, null)
    const start = addDays(DAY, -1)
    // (amount, output bps, days) → total output: 7 over 3 days, 10 over 3, 2 over 5 (0 a day, 2 on the last), …
    const cases = [
      { amount: 7n, outputBps: 10_000, days: 3, total: 7n },
      { amount: 10n, outputBps: 10_000, days: 3, total: 10n },
      { amount: 2n, outputBps: 10_000, days: 5, total: 2n },
      { amount: 100n, outputBps: 10_000, days: 1, total: 100n },
      { amount: 999_999_999_999n, outputBps: 10_600, days: 30, total: 1_059_999_999_998n },
    ]
    const ids: string[] = []
    for (const c of cases)
      ids.push(
        await addStake(db, { userId: user, amount: c.amount, days: c.days, startDay: start, outputBps: c.outputBps }),
      )
    for (let i = 1; i <= 31; i++) {
      await settle(db, addDays(start, i), 2)
      for (const [n, c] of cases.entries()) {
        const id = ids[n] as string
        const row = await stakeRow(db, id)
        expect(BigInt(row.total_output)).toBe(c.total)
        const perDay = c.total / BigInt(c.days)
        const expected = i >= c.days ? c.total : perDay * BigInt(i)
        expect(BigInt(row.released), `stake ${n} day ${i}`).toBe(expected)
        expect(sumOf(await outputs(db, 'pledge_output', id))).toBe(expected)
        expect(row.status).toBe(i >= c.days ? 'expired' : 'mining')
      }
    }
    // Exactly 7 over 3 days: 2, 2, 3.
    expect((await outputs(db, 'pledge_output', ids[0])).map((r) => [r.day, r.amount])).toEqual([
      [addDays(start, 1), '2'],
      [addDays(start, 2), '2'],
      [addDays(start, 3), '3'],
    ])
    // 2 over 5 days: nothing recorded while the daily share rounds to 0, all of it on the last day.
    expect((await outputs(db, 'pledge_output', ids[2])).map((r) => [r.day, r.amount])).toEqual([
      [addDays(start, 5), '2'],
    ])
    const total = cases.reduce((s, c) => s + c.total, 0n)
    expect((await balances(db, user))[PLG_CODE]?.available).toBe(total)
    await expectSound(db)
  })

  it('pays referral rewards by level on a random tree exactly as a plain reference computation', async () => {
    const db = await database()
    const scenario = await seedScenario(db, { seed: 7, users: sized(300, 120), day: DAY, spread: 4 })
    const days = await settle(db, DAY, 50)
    // From the day after the earliest position's start, every day through DAY.
    expect(days.map((d) => d.day)).toEqual(days.map((_, i) => addDays(DAY, i - days.length + 1)))
    expect(days.length).toBeGreaterThanOrEqual(5)

    for (const report of days) {
      const { day } = report
      const rewarded = await expectReferralsAsReference(db, scenario, day, DEFAULT_BUSINESS_CONFIG.referralRewards)
      if (day >= addDays(DAY, -3)) expect(rewarded, day).toBeGreaterThan(10)
      // The circuit breaker and the report count what the batches wrote, added up as they wrote it: the records.
      await expectTotalsOfRecords(db, report)
    }
    const kinds = await db.selectFrom('output_records').select('type').distinct().execute()
    expect(kinds.map((k) => k.type).sort()).toEqual([
      'finance_output',
      'node_dividend',
      'pledge_output',
      'referral_reward',
    ])
    // Each user is paid once a day per asset: one ledger transfer of the sum of their output records of that day.
    const state = await settlementState(db)
    expect(state.transfers.length).toBeLessThan(state.outputs.length)
    expect(state.transfers).toEqual(paymentsFor(state.outputs))
    await expectSound(db)
  })

  it('pays referral rewards beyond an ancestor segment (32 levels): a 40-deep chain with rates down to level 34', async () => {
    const rates = [1, 2, 3, 5, 34].map((level) => ({ level, rateBps: 100 + level }))
    const db = await database({ referralRewards: rates })
    const scenario: Scenario = { users: [], stakes: [] }
    let parent: string | null = null
    for (let depth = 0; depth < 40; depth++) {
      const id = await addUser(db, parent)
      scenario.users.push({ id, parent })
      parent = id
    }
    // The members at depths 30-39 stake: those at depths 33-37 find some of their first five levels past their own
    // segment (it ends at the anchor at depth 32), and level 34 is always past it.
    const startDay = addDays(DAY, -1)
    for (const { id } of scenario.users.slice(30)) {
      const amount = 1000n * PLG + BigInt(id)
      const stakeId = await addStake(db, { userId: id, amount, days: 30, startDay })
      scenario.stakes.push({ id: stakeId, userId: id, totalOutput: (amount * 12_000n) / 10_000n, days: 30, startDay })
    }
    await settle(db, DAY, 4)
    // Levels 1, 2, 3 and 5 reward depths 25-38; level 34 (members at depths 34-39) depths 0-5.
    expect(await expectReferralsAsReference(db, scenario, DAY, rates)).toBe(14 + 6)
    await expectSound(db)
  })

  it('catches up the days missed while nothing ran, in order, and never settles a day twice', async () => {
    const db = await database()
    const root = await addUser(db, null)
    const member = await addUser(db, root)
    await addStake(db, { userId: member, amount: 3000n * PLG, days: 30, startDay: addDays(DAY, -1) })
    // No run yet: the first day to settle is the day after the earliest position's start.
    expect(await firstUnsettledDay(db, addDays(DAY, 9))).toBe(DAY)
    expect((await settle(db, addDays(DAY, 1))).map((d) => d.day)).toEqual([DAY, addDays(DAY, 1)])
    // Down for four days: the timer at 01:00 UTC on DAY+6 (settlement hour 0) settles DAY+2 … DAY+6 in order.
    const caughtUp = await settleDue(db, { product: PLG_CODE, batchSize: 2 }, new Date(`${addDays(DAY, 6)}T01:00:00Z`))
    expect(caughtUp.map((d) => d.day)).toEqual([2, 3, 4, 5, 6].map((n) => addDays(DAY, n)))
    const runs = await db.selectFrom('settlement_runs').selectAll().orderBy('day').execute()
    expect(runs.map((r) => [r.day, r.status])).toEqual([0, 1, 2, 3, 4, 5, 6].map((n) => [addDays(DAY, n), 'done']))
    const finished = runs.map((r) => (r.finished_at as Date).getTime())
    expect(finished).toEqual([...finished].sort((a, b) => a - b))
    // DAY+7 is due from 00:00 UTC (settlement hour 0) and settled once: later passes that day settle nothing.
    expect(await settleDue(db, { product: PLG_CODE }, new Date(`${addDays(DAY, 7)}T00:00:00Z`))).toHaveLength(1)
    expect(await settleDue(db, { product: PLG_CODE }, new Date(`${addDays(DAY, 7)}T23:00:00Z`))).toEqual([])
    const pledged = await outputs(db, 'pledge_output')
    expect(pledged.map((r) => r.day)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((n) => addDays(DAY, n)))
    // 3000 PLG × 1.2 over 30 days = 120 PLG a day; the root gets 10 % of it.
    expect(new Set(pledged.map((r) => r.amount))).toEqual(new Set([(120n * PLG).toString()]))
    expect(sumOf(await outputs(db, 'referral_reward'))).toBe(8n * 12n * PLG)
    // With no position at all, the first day is the target itself.
    const empty = await database()
    expect(await firstUnsettledDay(empty, DAY)).toBe(DAY)
    expect((await settle(empty, DAY)).map((d) => [d.day, d.status, d.totals])).toEqual([[DAY, 'done', []]])
    await expectSound(db)
  })

  it('shares the node pool by weight among nodes bought before the day; the remainder is not paid', async () => {
    const db = await database({ nodePoolDaily: '1000', referralRewards: [] })
    const users = [await addUser(db, null), await addUser(db, null), await addUser(db, null), await addUser(db, null)]
    const before = `${addDays(DAY, -1)}T23:59:59Z`
    const nodes = [
      await addNode(db, { userId: users[0] as string, weight: 1, createdAt: `${addDays(DAY, -1)}T00:00:00Z` }),
      await addNode(db, { userId: users[1] as string, weight: 5, createdAt: before }),
      await addNode(db, { userId: users[2] as string, weight: 30, createdAt: before }),
      // Bought on the day itself: shares from the next day on.
      await addNode(db, { userId: users[3] as string, weight: 30, createdAt: `${DAY}T00:00:00Z` }),
    ]
    const [report, ...more] = await settle(db, DAY, 2)
    expect(more).toEqual([])
    // floor(1000 × w / 36): 27, 138, 833 = 998; 2 left unpaid.
    const dividends = async () =>
      (await db.selectFrom('user_nodes').select(['id', 'dividends']).orderBy('id').execute()).map((n) => n.dividends)
    expect(await dividends()).toEqual(['27', '138', '833', '0'])
    expect(report?.totals).toEqual([{ type: 'node_dividend', coin: PLG_CODE, decimals: 9, count: 3, amount: '998' }])
    // The next day all four share it: floor(1000 × w / 66) = 15, 75, 454, 454.
    await settle(db, addDays(DAY, 1))
    expect(await dividends()).toEqual(['42', '213', '1287', '454'])
    expect((await balances(db, users[2] as string))[PLG_CODE]?.available).toBe(1287n)
    expect((await outputs(db, 'node_dividend', nodes[3])).map((r) => r.day)).toEqual([addDays(DAY, 1)])
    await expectSound(db)
  })

  it('releases finance output in USDT and expires the deposit on its last day, removing its power', async () => {
    const db = await database({ referralRewards: [] })
    const user = await addUser(db, null)
    const start = addDays(DAY, -1)
    // 1000.000123 USDT for 7 days at 0.5 %: total 5.000000 USDT (rounded down), 714285 a day, 714290 on day 7.
    const id = await addDeposit(db, { userId: user, amount: 1000n * USDT + 123n, days: 7, startDay: start })
    expect((await powerOf(db, user)).personal_power).toBe(1000n * USDT + 123n)
    const list = await settle(db, addDays(start, 6))
    expect(list.map((d) => d.expired.finance)).toEqual([0, 0, 0, 0, 0, 0])
    const [last] = await settle(db, addDays(start, 7))
    expect(last).toMatchObject({
      day: addDays(start, 7),
      status: 'done',
      totals: [{ type: 'finance_output', coin: USDT_CODE, decimals: 6, count: 1, amount: '714290' }],
      expired: { stakes: 0, finance: 1 },
    })
    const row = await db.selectFrom('finance_deposits').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'expired', released: '5000000', total_output: '5000000', redeemed_at: null })
    expect(row.expired_at).toBeInstanceOf(Date)
    expect((await outputs(db, 'finance_output', id)).map((r) => r.amount)).toEqual([
      ...Array(6).fill('714285'),
      '714290',
    ])
    expect((await balances(db, user))[USDT_CODE]?.available).toBe(5n * USDT)
    expect((await powerOf(db, user)).personal_power).toBe(0n)
    // The day after: nothing left to release.
    expect((await settle(db, addDays(start, 8)))[0]?.totals).toEqual([])
    await expectSound(db)
  })

  it('expiry removes the stake’s power and performance from the user and every ancestor', async () => {
    const db = await database()
    const root = await addUser(db, null)
    const a = await addUser(db, root)
    const b = await addUser(db, a)
    const other = await addUser(db, a)
    // 1000 PLG at 0.5 = 500 USDT value, power ×1.5 = 750 USDT.
    await addStake(db, { userId: b, amount: 1000n * PLG, days: 2, startDay: addDays(DAY, -1), powerBps: 15_000 })
    await addStake(db, { userId: other, amount: 10n * PLG, days: 30, startDay: addDays(DAY, -1) })
    const value = 500n * USDT
    expect(await powerOf(db, b)).toEqual({
      personal_power: 750n * USDT,
      team_power: 0n,
      performance: value,
      team_performance: 0n,
    })
    expect((await powerOf(db, root)).team_power).toBe(750n * USDT + 5n * USDT)
    await settle(db, DAY)
    expect((await powerOf(db, b)).personal_power).toBe(750n * USDT)
    const [report] = await settle(db, addDays(DAY, 1))
    expect(report?.expired).toEqual({ stakes: 1, finance: 0 })
    expect(await powerOf(db, b)).toEqual({ personal_power: 0n, team_power: 0n, performance: 0n, team_performance: 0n })
    for (const ancestor of [a, root])
      expect(await powerOf(db, ancestor)).toEqual({
        personal_power: 0n,
        team_power: 5n * USDT,
        performance: 0n,
        team_performance: 5n * USDT,
      })
    await expectSound(db)
  })

  it('a configuration stored before nodePoolDaily existed still works (defaults merged under it)', async () => {
    const db = await database()
    const { nodePoolDaily: _, ...older } = DEFAULT_BUSINESS_CONFIG
    await db
      .insertInto('config_versions')
      .values({ value: JSON.stringify({ ...older, settlementHourUtc: 3 }), changed_by: 'old' })
      .execute()
    const config = await getBusinessConfig(db)
    expect(config.nodePoolDaily).toBe(DEFAULT_BUSINESS_CONFIG.nodePoolDaily)
    expect(config.settlementHourUtc).toBe(3)
  })

  it('the upgrade to one payment per user and day refuses to run while a day is unfinished', async () => {
    const db = await database()
    // A run the previous version left half-way: it paid per record, so this version must not finish it.
    await db
      .insertInto('settlement_runs')
      .values({ day: DAY, phase: 'referral_pay', cursor: '7', summary: JSON.stringify({}) })
      .execute()
    await expect(settlementPerf.up(db as unknown as Kysely<unknown>)).rejects.toThrow(
      `the settlement of ${DAY} is unfinished: finish it with the previous version (npm run settle) before upgrading`,
    )
  })

  it('a run begun before its batches added up their records is checked by the records themselves', async () => {
    const db = await database()
    await seedScenario(db, { seed: 11, users: 40, day: DAY, spread: 1 })
    // The run as the previous version created it: no `recorded` in its summary.
    await db
      .insertInto('settlement_runs')
      .values({
        day: DAY,
        phase: 'pledge',
        cursor: '0',
        summary: JSON.stringify({
          pool: DEFAULT_BUSINESS_CONFIG.nodePoolDaily,
          referral: DEFAULT_BUSINESS_CONFIG.referralRewards,
          expired: { stakes: 0, finance: 0 },
        }),
      })
      .execute()
    const [report, ...more] = await settle(db, DAY)
    expect([report?.status, more]).toEqual(['done', []])
    expect(await expectTotalsOfRecords(db, report as SettlementDay)).toBeGreaterThan(1)
    const run = await db
      .selectFrom('settlement_runs')
      .select('summary')
      .where('day', '=', DAY)
      .executeTakeFirstOrThrow()
    expect(run.summary).not.toHaveProperty('recorded')
    await expectSound(db)
  })

  it('settling a day again changes nothing', async () => {
    const db = await database()
    await seedScenario(db, { seed: 3, users: 40, day: DAY, spread: 2 })
    const first = await settle(db, DAY)
    const state = await settlementState(db)
    const again = await settle(db, DAY)
    expect(again).toEqual(first.slice(-1))
    expect(await settle(db, addDays(DAY, -1))).toEqual(first.slice(-2, -1))
    expect(await settlementState(db)).toEqual(state)
    await expectSound(db)
  })
})

describe(`operator route /admin/settlement/run (${dbKind})`, () => {
  let t: TestContext | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })
  const run = (day: string, token?: string) =>
    call(
      (t as TestContext).app,
      api.settlementRun,
      { day },
      token === undefined ? {} : { headers: { 'operator-token': token } },
    )

  it('refuses a missing or wrong token, and a day not yet due off the local chain', async () => {
    t = await createTestApp(realCluster('mainnet-beta'))
    expect(t.platform.localChain).toBe(false)
    await addOffChainAssets(t.db)
    for (const token of [undefined, '', 'wrong', `${t.platform.operatorToken}x`]) {
      const res = await run(DAY, token)
      expect(res).toMatchObject({ code: Code.FAIL, msg: 'Operator access only' })
    }
    const tomorrow = addDays(new Date().toISOString().slice(0, 10), 1)
    const refused = await run(tomorrow, t.platform.operatorToken)
    expect(refused).toMatchObject({ code: Code.FAIL, msg: `The settlement of ${tomorrow} is not due yet` })
    expect(await t.db.selectFrom('settlement_runs').selectAll().execute()).toEqual([])
    expect((await run('2025-02-30', t.platform.operatorToken)).code).toBe(Code.INVALID)

    const user = await addUser(t.db, null)
    await addStake(t.db, { userId: user, amount: 30n * PLG, days: 30, startDay: addDays(DAY, -1) })
    const ok = await run(addDays(DAY, 1), t.platform.operatorToken)
    expect(ok).toMatchObject({ code: Code.OK, msg: 'Settlement finished' })
    const list = (ok.data as { list: SettlementDay[] }).list
    expect(list.map((d) => d.day)).toEqual([DAY, addDays(DAY, 1)])
    expect(list[1]).toMatchObject({
      status: 'done',
      totals: [{ type: 'pledge_output', coin: PLG_CODE, decimals: 9, count: 1, amount: '1200000000' }],
      expired: { stakes: 0, finance: 0 },
    })
    expect(Date.parse(list[1]?.finished_at as string)).toBeGreaterThan(0)
    // Asked again: the day's record, unchanged.
    const again = await run(addDays(DAY, 1), t.platform.operatorToken)
    expect((again.data as { list: SettlementDay[] }).list).toEqual([list[1]])
  })

  it('settles future days on the local chain (tests and demos)', async () => {
    t = await createTestApp()
    expect(t.platform.localChain).toBe(true)
    await addOffChainAssets(t.db)
    const future = addDays(new Date().toISOString().slice(0, 10), 3)
    const res = await run(future, t.platform.operatorToken)
    expect(res.code).toBe(Code.OK)
    expect((res.data as { list: SettlementDay[] }).list.map((d) => d.day)).toEqual([future])
  })
})
