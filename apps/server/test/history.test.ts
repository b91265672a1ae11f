import { api, Code, type DataOf, type Stake } from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backfillTeamMonths } from '../src/db/migrations/0028-team-months.ts'
import { addDays, utcDay } from '../src/lib/day.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { setBusinessConfig } from '../src/modules/config/service.ts'
import { myHistory } from '../src/modules/pledge/history.ts'
import { applyPower, powerChange, powerOf } from '../src/modules/power/service.ts'
import { call, createSeededApp, dbKind, fundedMember, type SeededApp } from './helpers.ts'

type History = DataOf<typeof api.myHistory>

describe(`the charts' history (${dbKind})`, () => {
  let t: SeededApp
  beforeAll(async () => {
    t = await createSeededApp()
  })
  afterAll(() => t.close())

  const today = utcDay()
  const history = (auth: { token: string; address: string }, days?: number) =>
    call(t.app, api.myHistory, days === undefined ? {} : { days }, auth)
  /**
   * The team's months as the stakes now are: migration 0028's sum of the stakes made so far, into team_months, with
   * the rows' own months (migration 0032) emptied.
   */
  const recountTeamMonths = async () => {
    await t.db.deleteFrom('team_months').execute()
    await t.db
      .updateTable('user_power')
      .set({ team_month: null, team_month_performance: '0', closed_month: null, closed_month_performance: null })
      .execute()
    await backfillTeamMonths.execute(t.db)
  }

  it("shows the user's power from their positions and their output per settled day, nobody else's", async () => {
    const u = await fundedMember(t, t.root.address, { PLG: 2000n * PLG })
    const other = await fundedMember(t, u.address, { PLG: 500n * PLG })
    const long = (await call(t.app, api.pledgeStake, { amount: String(1000n * PLG), days: 90 }, u.auth)).data as Stake
    const short = (await call(t.app, api.pledgeStake, { amount: String(200n * PLG), days: 30 }, u.auth)).data as Stake
    const theirs = (await call(t.app, api.pledgeStake, { amount: String(500n * PLG), days: 30 }, other.auth))
      .data as Stake
    // The team: `other` (direct) and its own member; someone under the root is not in it.
    const below = await fundedMember(t, other.address, { PLG: 200n * PLG })
    const deep = (await call(t.app, api.pledgeStake, { amount: String(200n * PLG), days: 30 }, below.auth))
      .data as Stake
    const outsider = await fundedMember(t, t.root.address, { PLG: 300n * PLG })
    await call(t.app, api.pledgeStake, { amount: String(300n * PLG), days: 30 }, outsider.auth)
    const [a, b] = [BigInt(long.power), BigInt(short.power)]
    const thisMonth = `${today.slice(0, 7)}-01`

    // Today, as the route answers it: power from zero to both stakes' today, no output yet.
    const now = await history(u.auth, 7)
    expect(now).toMatchObject({ code: Code.OK })
    expect(now.data).toEqual({
      from: addDays(today, -6),
      to: today,
      output: [],
      power: [
        { day: addDays(today, -6), power: '0' },
        { day: today, power: String(a + b) },
      ],
      team: [{ month: thisMonth, performance: String(BigInt(theirs.usdt_value) + BigInt(deep.usdt_value)) }],
    } satisfies History)
    expect(BigInt(theirs.usdt_value)).toBe(250n * USDT)
    // The last point is the figure the rest of the app shows.
    expect((await powerOf(t.db, u.id)).personal_power).toBe(a + b)

    // As time would have left them: the long stake made 20 days ago, the short one 10 days ago and expired by the
    // settlement 2 days ago; output credited 3 days ago (two records of PLG, one of USDT) and 40 days ago.
    const moveEvent = (id: string, day: string) =>
      t.db.updateTable('power_events').set({ day }).where('source', '=', 'stake').where('source_id', '=', id).execute()
    await moveEvent(long.id, addDays(today, -20))
    await moveEvent(short.id, addDays(today, -10))
    await t.db
      .updateTable('stakes')
      .set({ status: 'expired', expired_at: new Date(`${addDays(today, -2)}T00:05:00Z`) })
      .where('id', '=', short.id)
      .execute()
    // The deep member's stake on the first day of the month before.
    const lastMonth = `${addDays(thisMonth, -1).slice(0, 7)}-01`
    await t.db
      .updateTable('stakes')
      .set({ created_at: new Date(`${lastMonth}T00:00:00Z`) })
      .where('id', '=', deep.id)
      .execute()
    // The team's months as the stakes now are (what the migration adds up).
    await recountTeamMonths()
    const record = (day: string, type: 'pledge_output' | 'referral_reward', asset: string, amount: bigint) => ({
      user_id: u.id,
      day,
      type,
      parent_id: long.id,
      asset,
      amount: String(amount),
    })
    await t.db
      .insertInto('output_records')
      .values([
        record(addDays(today, -3), 'pledge_output', 'PLG', 5n * PLG),
        { ...record(addDays(today, -3), 'pledge_output', 'PLG', PLG), parent_id: short.id },
        record(addDays(today, -3), 'referral_reward', 'USDT', 2n * USDT),
        record(addDays(today, -40), 'pledge_output', 'PLG', 7n * PLG),
        // A day an operator settled ahead.
        record(addDays(today, 1), 'pledge_output', 'PLG', 3n * PLG),
        { ...record(addDays(today, -3), 'pledge_output', 'PLG', 9n * PLG), user_id: other.id },
      ])
      .execute()

    const month = await history(u.auth, 30)
    expect(month.data).toEqual({
      from: addDays(today, -29),
      to: addDays(today, 1),
      output: [
        { day: addDays(today, -3), coin: 'PLG', decimals: 9, amount: String(6n * PLG) },
        { day: addDays(today, -3), coin: 'USDT', decimals: 6, amount: String(2n * USDT) },
        { day: addDays(today, 1), coin: 'PLG', decimals: 9, amount: String(3n * PLG) },
      ],
      power: [
        { day: addDays(today, -29), power: '0' },
        { day: addDays(today, -20), power: String(a) },
        { day: addDays(today, -10), power: String(a + b) },
        { day: addDays(today, -2), power: String(a) },
      ],
      // The month before shows when the window reaches it (below).
      team: expect.any(Array),
    } satisfies History)

    // A shorter window starts from the power then; the default is 90 days, output 40 days ago included.
    expect(((await history(u.auth, 15)).data as History).power).toEqual([
      { day: addDays(today, -14), power: String(a) },
      { day: addDays(today, -10), power: String(a + b) },
      { day: addDays(today, -2), power: String(a) },
    ])
    const quarter = (await history(u.auth)).data as History
    expect(quarter.from).toBe(addDays(today, -89))
    expect(quarter.team).toEqual([
      { month: lastMonth, performance: deep.usdt_value },
      { month: thisMonth, performance: theirs.usdt_value },
    ])
    expect(quarter.output[0]).toEqual({ day: addDays(today, -40), coin: 'PLG', decimals: 9, amount: String(7n * PLG) })

    // Read as of a later day (the service's `today`): the days after the last change keep its figure.
    const later = await myHistory(t.db, u.id, 7, addDays(today, 30))
    expect(later.power).toEqual([{ day: addDays(today, 24), power: String(a) }])
    expect(later).toMatchObject({ to: addDays(today, 30), output: [] })
    // A window that starts after the team's stakes shows none of them.
    expect((await myHistory(t.db, u.id, 7, addDays(today, 70))).team).toEqual([])
  })

  it("keeps each user's team performance by month equal to a walk of the whole downline", async () => {
    /** What the history read before team_months: the whole downline down users.parent_id, its stakes by month. */
    const walk = async (userId: string) =>
      (
        await sql<{ month: string; performance: string }>`
          with recursive team(id) as (
            select id from users where parent_id = ${userId}
            union all
            select u.id from users u join team t on u.parent_id = t.id
          )
          select to_char(date_trunc('month', s.created_at at time zone 'UTC'), 'YYYY-MM-DD') as month,
            sum(s.usdt_value)::text as performance
          from team join stakes s on s.user_id = team.id
          group by 1 order by 1`.execute(t.db)
      ).rows
    const kept = (userId: string) => myHistory(t.db, userId, 366).then((history) => history.team)
    // top ─ a ─ b ─ c, a ─ d; staking: top, a (twice), b, c, d (two of them at once).
    const top = await fundedMember(t, t.root.address, { PLG: 1000n * PLG })
    const a = await fundedMember(t, top.address, { PLG: 1000n * PLG })
    const b = await fundedMember(t, a.address, { PLG: 1000n * PLG })
    const c = await fundedMember(t, b.address, { PLG: 1000n * PLG })
    const d = await fundedMember(t, a.address, { PLG: 1000n * PLG })
    const stake = async (who: { auth: { token: string; address: string } }, amount: bigint, days = 30) => {
      const res = await call(t.app, api.pledgeStake, { amount: String(amount * PLG), days }, who.auth)
      expect(res.code, res.msg).toBe(Code.OK)
    }
    await stake(top, 300n)
    await stake(a, 200n)
    await stake(a, 250n, 90)
    await stake(b, 400n)
    await Promise.all([stake(c, 500n), stake(d, 600n)])
    const tree = [top, a, b, c, d]
    for (const user of tree) expect(await kept(user.id), user.address).toEqual(await walk(user.id))
    expect(await kept(top.id)).toEqual([
      { month: `${today.slice(0, 7)}-01`, performance: String((200n + 250n + 400n + 500n + 600n) * (USDT / 2n)) },
    ])
    // Stakes of other months: the migration's sum of the stakes made so far agrees too.
    await sql`update stakes set created_at = created_at - interval '40 days'
      where user_id in (${sql.join([b.id, d.id])})`.execute(t.db)
    await recountTeamMonths()
    for (const user of tree) expect(await kept(user.id), user.address).toEqual(await walk(user.id))
    expect((await kept(a.id)).length).toBe(2)

    // Stakes of two months in turn below c, an earlier month after a later one too (two transactions may commit in
    // either order): each ancestor's user_power row keeps one month and hands the one it closes to team_months
    // (migration 0032); every month adds up, and nobody else's months move.
    const before = new Map(await Promise.all(tree.map(async (user) => [user.id, await kept(user.id)] as const)))
    const monthsAgo = (n: number) => {
      const first = new Date(`${today.slice(0, 7)}-01T00:00:00Z`)
      first.setUTCMonth(first.getUTCMonth() - n)
      return first.toISOString().slice(0, 10)
    }
    const [older, newer] = [monthsAgo(3), monthsAgo(2)]
    for (const [month, amount] of [
      [older, 5n],
      [newer, 7n],
      [older, 11n],
      [newer, 13n],
    ] as const)
      await t.db
        .transaction()
        .execute((trx) => applyPower(trx, powerChange(c.id, 0n, 0n, undefined, { month, amount })))
    const plus = (months: { month: string; performance: string }[], added: Record<string, bigint>) => {
      const sums = new Map(months.map((m) => [m.month, BigInt(m.performance)]))
      for (const [month, amount] of Object.entries(added)) sums.set(month, (sums.get(month) ?? 0n) + amount)
      return [...sums]
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([month, performance]) => ({ month, performance: String(performance) }))
    }
    for (const user of tree) {
      const above = user === top || user === a || user === b
      expect(await kept(user.id), user.address).toEqual(
        plus(before.get(user.id) ?? [], above ? { [older]: 16n, [newer]: 20n } : {}),
      )
    }
    const row = await t.db
      .selectFrom('user_power')
      .select(['team_month', 'team_month_performance'])
      .where('user_id', '=', b.id)
      .executeTakeFirstOrThrow()
    expect([String(row.team_month), String(row.team_month_performance)]).toEqual([newer, '13'])
  })

  it("serves each product's rate from every applied configuration version that changed it", async () => {
    type Rates = DataOf<typeof api.rateHistory>
    const at = async (id: string) => {
      const row = await t.db.selectFrom('config_versions').select('created_at').where('id', '=', id).executeTakeFirst()
      return new Date(row?.created_at as Date).toISOString()
    }
    const seeded = await t.db.selectFrom('config_versions').select('id').orderBy('id').executeTakeFirstOrThrow()
    const start = await at(seeded.id)
    const base = DEFAULT_BUSINESS_CONFIG
    const [p30, p90, p180] = base.pledge.periods
    // Read once before the versions below: the history is kept between requests until the versions change.
    const before = await call(t.app, api.rateHistory, {})
    const stake30 = (before.data as Rates).products.find((p) => p.kind === 'stake' && p.days === 30)
    expect(stake30?.changes).toEqual([{ from: start, output_bps: 10_600 }])
    // The 30-day period pays more and the 7-day term is withdrawn; then a version that changes no rate; then the 7-day
    // term is back at another rate.
    const raised = { ...base, pledge: { ...base.pledge, periods: [{ ...p30, outputBps: 10_700 }, p90, p180] } }
    const withdrawn = { ...raised, finance: base.finance.filter((f) => f.days !== 7) }
    const v1 = await at(await setBusinessConfig(t.db, withdrawn, 'test'))
    await setBusinessConfig(t.db, { ...withdrawn, referencePrice: '510000' }, 'test')
    const v3 = await at(
      await setBusinessConfig(
        t.db,
        { ...raised, finance: [{ ...base.finance[0], outputBps: 60 }, ...withdrawn.finance] },
        'test',
      ),
    )
    try {
      const res = await call(t.app, api.rateHistory, {})
      expect(res.code).toBe(Code.OK)
      expect(res.data).toEqual({
        products: [
          {
            kind: 'stake',
            days: 30,
            changes: [
              { from: start, output_bps: 10_600 },
              { from: v1, output_bps: 10_700 },
            ],
          },
          { kind: 'stake', days: 90, changes: [{ from: start, output_bps: 12_000 }] },
          { kind: 'stake', days: 180, changes: [{ from: start, output_bps: 14_500 }] },
          {
            kind: 'finance',
            days: 7,
            changes: [
              { from: start, output_bps: 50 },
              { from: v1, output_bps: null },
              { from: v3, output_bps: 60 },
            ],
          },
          { kind: 'finance', days: 30, changes: [{ from: start, output_bps: 250 }] },
          { kind: 'finance', days: 90, changes: [{ from: start, output_bps: 900 }] },
          { kind: 'finance', days: 180, changes: [{ from: start, output_bps: 2000 }] },
        ],
      } satisfies Rates)
      const bad = await call(t.app, api.rateHistory, { days: 30 } as never)
      expect(bad.code).toBe(Code.INVALID)
      expect(bad.status).toBeLessThan(500)
    } finally {
      await setBusinessConfig(t.db, base, 'test')
    }
  })

  it('refuses a bad window and a caller without a session, changing nothing', async () => {
    const u = await fundedMember(t, t.root.address)
    for (const body of [{ days: 6 }, { days: 367 }, { days: 7.5 }, { days: '30' }, { days: 30, user: '1' }, []]) {
      const res = await call(t.app, api.myHistory, body as never, u.auth)
      expect(res.code, JSON.stringify(body)).toBe(Code.INVALID)
      expect(res.status, JSON.stringify(body)).toBeLessThan(500)
    }
    const anonymous = await call(t.app, api.myHistory, { days: 30 })
    expect(anonymous.code).not.toBe(Code.OK)
    expect(anonymous.status).toBeLessThan(500)
  })
})
