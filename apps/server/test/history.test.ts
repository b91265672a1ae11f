import { api, Code, type DataOf, type Stake } from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, utcDay } from '../src/lib/day.ts'
import { myHistory } from '../src/modules/pledge/history.ts'
import { powerOf } from '../src/modules/power/service.ts'
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
