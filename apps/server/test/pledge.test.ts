import { api, Code, type OutputRecord, type Stake } from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, utcDay } from '../src/lib/day.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { setBusinessConfig } from '../src/modules/config/service.ts'
import { balances, checkInvariants, systemAccount } from '../src/modules/ledger/service.ts'
import { powerOf } from '../src/modules/power/service.ts'
import {
  accountBalance,
  call,
  createSeededApp,
  creditAvailable,
  dbKind,
  fundedMember,
  type Member,
  type SeededApp,
} from './helpers.ts'

describe(`staking (${dbKind})`, () => {
  let t: SeededApp
  beforeAll(async () => {
    t = await createSeededApp()
  })
  afterAll(() => t.close())

  /** A logged-in user under `parent` (the root by default) holding `plg` PLG available. */
  const user = (plg: bigint, parent: { address: string } = t.root) => fundedMember(t, parent.address, { PLG: plg })
  type User = Member

  const fund = (id: string, amount: bigint, asset = 'PLG') => creditAvailable(t.db, id, asset, amount)

  const available = async (u: { id: string }) => (await balances(t.db, u.id)).PLG?.available ?? 0n
  const stake = (u: User, amount: bigint | string, days: number) =>
    call(t.app, api.pledgeStake, { amount: amount.toString(), days }, u.auth)
  const stakeCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('stakes')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const pledgeBalance = async () => accountBalance(t.db, await systemAccount(t.db, 'PLG', 'pledge'))
  const list = async (u: User, status: 'mining' | 'expired' | 1 | 2 | '1' | '2', page = 1, limit = 10) => {
    const res = await call(t.app, api.minerList, { status, page, limit }, u.auth)
    expect(res.code).toBe(Code.OK)
    return res.data as { list: Stake[]; total: number; page: number; limit: number }
  }

  /** root → a → b → c: a three-level chain below the root, with nothing staked. */
  async function chain() {
    const a = await user(0n)
    const b = await user(0n, a)
    const c = await user(0n, b)
    return { a, b, c }
  }

  it('stakes from the balance: figures from the price and the period, principal to the pledge account', async () => {
    const u = await user(1500n * PLG)
    const before = await pledgeBalance()
    const res = await stake(u, 1000n * PLG, 90)
    expect(res).toMatchObject({ code: Code.OK, msg: 'Staking Successful' })
    const s = res.data as Stake
    const day = utcDay()
    // Price 0.5 USDT: worth 500 USDT; power ×1.5 = 750 USDT; output ×1.2 = 1200 PLG.
    expect(s).toEqual({
      id: s.id,
      coin: 'PLG',
      decimals: 9,
      amount: String(1000n * PLG),
      price: '500000',
      usdt_value: String(500n * USDT),
      days: 90,
      output_bps: 12_000,
      power: String(750n * USDT),
      total_output: String(1200n * PLG),
      produced: '0',
      remaining: String(1200n * PLG),
      start_day: day,
      end_day: addDays(day, 90),
      status: 'mining',
      paid: 'balance',
      created_at: s.created_at,
    })
    expect(await available(u)).toBe(500n * PLG)
    expect((await pledgeBalance()) - before).toBe(1000n * PLG)
    const move = await t.db
      .selectFrom('ledger_transfers')
      .select(['type', 'amount', 'reference'])
      .where('idempotency_key', '=', `stake:${s.id}`)
      .executeTakeFirstOrThrow()
    expect(move).toEqual({ type: 'stake', amount: String(1000n * PLG), reference: `stake:${s.id}` })
    expect(await list(u, 'mining')).toEqual({ list: [s], total: 1, page: 1, limit: 10 })
    expect((await list(u, 'expired')).list).toEqual([])
    // The spec's clients send the status as a number or a numeric string: 1 mining, 2 expired (docs/product.md#records).
    expect((await list(u, 1)).list).toEqual([s])
    expect((await list(u, '1')).list).toEqual([s])
    expect((await list(u, 2)).list).toEqual([])
    for (const status of [0, 3, '0', '3', '1.0', ' 1', 'active', true])
      expect((await call(t.app, api.minerList, { status } as never, u.auth)).code, String(status)).toBe(Code.INVALID)
    const event = await t.db
      .selectFrom('power_events')
      .select(['user_id', 'day', 'power'])
      .where('source', '=', 'stake')
      .where('source_id', '=', s.id)
      .executeTakeFirstOrThrow()
    expect(event).toEqual({ user_id: u.id, day, power: String(750n * USDT) })
  })

  it('adds the power to the staker and to every ancestor on a three-level chain', async () => {
    const { a, b, c } = await chain()
    await fund(c.id, 400n * PLG)
    const rootBefore = await powerOf(t.db, t.root.id)
    // 400 PLG × 0.5 = 200 USDT, 180 days: power ×2 = 400 USDT.
    expect((await stake(c, 400n * PLG, 180)).code).toBe(Code.OK)
    expect(await powerOf(t.db, c.id)).toEqual({
      personal_power: 400n * USDT,
      team_power: 0n,
      performance: 200n * USDT,
      team_performance: 0n,
    })
    for (const ancestor of [a, b])
      expect(await powerOf(t.db, ancestor.id)).toEqual({
        personal_power: 0n,
        team_power: 400n * USDT,
        performance: 0n,
        team_performance: 200n * USDT,
      })
    const rootAfter = await powerOf(t.db, t.root.id)
    expect(rootAfter.team_power - rootBefore.team_power).toBe(400n * USDT)
    expect(rootAfter.team_performance - rootBefore.team_performance).toBe(200n * USDT)
    expect(rootAfter.personal_power).toBe(rootBefore.personal_power)
  })

  it('refuses below the minimum, an unknown period and more than the balance, with nothing changed', async () => {
    const u = await user(300n * PLG)
    const stakes = await stakeCount()
    // Minimum 100 USDT at 0.5 USDT = 200 PLG.
    expect(await stake(u, 200n * PLG - 1n, 30)).toMatchObject({
      code: Code.FAIL,
      msg: 'The amount of the pledge cannot be less than 200PLG',
      data: null,
    })
    expect(await stake(u, 250n * PLG, 60)).toMatchObject({
      code: Code.INVALID,
      msg: 'Please choose one of the staking periods',
    })
    expect(await stake(u, 301n * PLG, 30)).toMatchObject({
      code: Code.FAIL,
      msg: 'Staking amount exceeds available balance.',
    })
    // The largest amount the schema accepts (38 digits): refused by the balance, no overflow anywhere.
    expect(await stake(u, '9'.repeat(38), 30)).toMatchObject({
      code: Code.FAIL,
      msg: 'Staking amount exceeds available balance.',
    })
    expect(await stakeCount()).toBe(stakes)
    expect(await available(u)).toBe(300n * PLG)
    // The minimum in the message follows the configuration: 150 USDT at 0.4 USDT = 375 PLG.
    await setBusinessConfig(
      t.db,
      {
        ...DEFAULT_BUSINESS_CONFIG,
        referencePrice: '400000',
        pledge: { ...DEFAULT_BUSINESS_CONFIG.pledge, minUsdt: '150000000' },
      },
      'test',
    )
    expect((await stake(u, 300n * PLG, 30)).msg).toBe('The amount of the pledge cannot be less than 375PLG')
    // Grouped in the request's language with every decimal: 1,234.567891 USDT at 0.5 USDT = 2,469.135782 PLG.
    await setBusinessConfig(
      t.db,
      { ...DEFAULT_BUSINESS_CONFIG, pledge: { ...DEFAULT_BUSINESS_CONFIG.pledge, minUsdt: '1234567891' } },
      'test',
    )
    expect((await stake(u, 300n * PLG, 30)).msg).toBe('The amount of the pledge cannot be less than 2,469.135782PLG')
    const vi = await call(t.app, api.pledgeStake, { amount: String(300n * PLG), days: 30 }, { ...u.auth, lang: 'vi' })
    expect(vi).toMatchObject({ code: Code.FAIL, msg: 'Số lượng stake không được nhỏ hơn 2.469,135782PLG' })
    await setBusinessConfig(t.db, DEFAULT_BUSINESS_CONFIG, 'test')
    // Exactly the minimum is accepted.
    expect((await stake(u, 200n * PLG, 30)).code).toBe(Code.OK)
  })

  it('refuses malformed bodies as invalid input (code -1) with nothing changed', async () => {
    const u = await user(1000n * PLG)
    const stakes = await stakeCount()
    for (const body of [
      { amount: '0', days: 30 },
      { amount: '-1', days: 30 },
      { amount: '1.5', days: 30 },
      { amount: '1e12', days: 30 },
      { amount: ' 500000000000', days: 30 },
      { amount: '0500000000000', days: 30 },
      { amount: '9'.repeat(39), days: 30 },
      { amount: '', days: 30 },
      { amount: 500_000_000_000, days: 30 },
      { amount: '500000000000', days: 0 },
      { amount: '500000000000', days: -30 },
      { amount: '500000000000', days: 30.5 },
      { amount: '500000000000', days: '30' },
      { amount: '500000000000', days: 3651 },
      { amount: '500000000000' },
      { days: 30 },
      { amount: '500000000000', days: 30, coin: 'PLG' },
    ]) {
      const res = await call(t.app, api.pledgeStake, body, u.auth)
      expect(res.code, JSON.stringify(body)).toBe(Code.INVALID)
    }
    expect((await call(t.app, api.pledgeStake, { amount: '500000000000', days: 30 })).code).toBe(Code.SESSION_INVALID)
    expect(await stakeCount()).toBe(stakes)
    expect(await available(u)).toBe(1000n * PLG)
  })

  it('answers "Failed to get configuration." when the configuration cannot be read', async () => {
    const u = await user(1000n * PLG)
    const broken = await t.db
      .insertInto('config_versions')
      .values({ value: JSON.stringify({ pledge: null }), changed_by: 'test' })
      .returning('id')
      .executeTakeFirstOrThrow()
    try {
      expect(await stake(u, 500n * PLG, 30)).toMatchObject({ code: Code.FAIL, msg: 'Failed to get configuration.' })
    } finally {
      await t.db.deleteFrom('config_versions').where('id', '=', broken.id).execute()
    }
    expect(await available(u)).toBe(1000n * PLG)
    expect((await stake(u, 500n * PLG, 30)).code).toBe(Code.OK)
  })

  it('a refused stake leaves nothing behind: the same stake retried after a top-up succeeds once', async () => {
    const u = await user(100n * PLG)
    expect((await stake(u, 300n * PLG, 30)).msg).toBe('Staking amount exceeds available balance.')
    await fund(u.id, 200n * PLG)
    expect((await stake(u, 300n * PLG, 30)).code).toBe(Code.OK)
    expect((await stake(u, 300n * PLG, 30)).msg).toBe('Staking amount exceeds available balance.')
    expect((await list(u, 'mining')).total).toBe(1)
    expect(await available(u)).toBe(0n)
  })

  it('concurrent stakes that each fit but not together: exactly as many succeed as the balance covers', async () => {
    const u = await user(1000n * PLG)
    const pair = await Promise.all([stake(u, 600n * PLG, 30), stake(u, 600n * PLG, 90)])
    expect(pair.filter((r) => r.code === Code.OK)).toHaveLength(1)
    expect(pair.filter((r) => r.msg === 'Staking amount exceeds available balance.')).toHaveLength(1)
    expect(await available(u)).toBe(400n * PLG)

    const v = await user(1000n * PLG)
    const results = await Promise.all(Array.from({ length: 10 }, () => stake(v, 300n * PLG, 30)))
    expect(results.filter((r) => r.code === Code.OK)).toHaveLength(3)
    expect(results.filter((r) => r.msg === 'Staking amount exceeds available balance.')).toHaveLength(7)
    expect(await available(v)).toBe(100n * PLG)
    const stakes = await list(v, 'mining')
    expect(stakes.total).toBe(3)
    // Power counts the three stakes only: 3 × 150 USDT.
    expect((await powerOf(t.db, v.id)).personal_power).toBe(450n * USDT)
    expect(await checkInvariants(t.db)).toEqual([])
  })

  it('lists newest first with paging, produced and remaining; expired stakes under their status', async () => {
    const u = await user(2000n * PLG)
    const ids: string[] = []
    for (const days of [30, 90, 180]) ids.push(((await stake(u, 400n * PLG, days)).data as Stake).id)
    const page1 = await list(u, 'mining', 1, 2)
    expect(page1.total).toBe(3)
    expect(page1.list.map((s) => s.id)).toEqual([ids[2], ids[1]])
    expect((await list(u, 'mining', 2, 2)).list.map((s) => s.id)).toEqual([ids[0]])
    // As the settlement would leave them: some output released, the first stake expired.
    await t.db
      .updateTable('stakes')
      .set({ released: String(100n * PLG) })
      .where('id', '=', ids[1] as string)
      .execute()
    await t.db
      .updateTable('stakes')
      .set({ status: 'expired', released: String(424n * PLG) })
      .where('id', '=', ids[0] as string)
      .execute()
    const mining = await list(u, 'mining')
    expect(mining.list.map((s) => s.id)).toEqual([ids[2], ids[1]])
    // 400 PLG for 90 days at ×1.2: 480 PLG in all.
    expect(mining.list[1]).toMatchObject({ produced: String(100n * PLG), remaining: String(380n * PLG) })
    const expired = await list(u, 'expired')
    expect(expired.list).toHaveLength(1)
    expect(expired.list[0]).toMatchObject({
      id: ids[0],
      status: 'expired',
      produced: String(424n * PLG),
      remaining: '0',
    })
  })

  it("details one of the user's stakes with its output records; another user's stake does not exist", async () => {
    const u = await user(500n * PLG)
    const other = await user(500n * PLG)
    const s = (await stake(u, 500n * PLG, 30)).data as Stake
    const theirs = (await stake(other, 500n * PLG, 30)).data as Stake
    // Output records as the daily settlement writes them (the settlement is another module).
    const day = utcDay()
    for (const [offset, amount] of [
      [1, 17n],
      [2, 18n],
      [3, 19n],
    ] as const)
      await t.db
        .insertInto('output_records')
        .values({
          user_id: u.id,
          day: addDays(day, offset),
          type: 'pledge_output',
          parent_id: s.id,
          asset: 'PLG',
          amount: String(amount * PLG),
        })
        .execute()
    // Records of other types or other positions are not this stake's.
    await t.db
      .insertInto('output_records')
      .values([
        { user_id: u.id, day, type: 'finance_output', parent_id: s.id, asset: 'USDT', amount: '5' },
        { user_id: other.id, day, type: 'pledge_output', parent_id: theirs.id, asset: 'PLG', amount: '7' },
      ])
      .execute()

    const res = await call(t.app, api.minerDetail, { id: s.id, page: 1, limit: 2, parent_id: s.id }, u.auth)
    expect(res.code).toBe(Code.OK)
    const { detail, records } = res.data as {
      detail: Stake
      records: { list: OutputRecord[]; total: number; page: number; limit: number }
    }
    expect(detail).toEqual(s)
    expect(records).toMatchObject({ total: 3, page: 1, limit: 2 })
    expect(records.list.map((r) => [r.day, r.amount, r.coin, r.decimals, r.type])).toEqual([
      [addDays(day, 3), String(19n * PLG), 'PLG', 9, 'pledge_output'],
      [addDays(day, 2), String(18n * PLG), 'PLG', 9, 'pledge_output'],
    ])
    const rest = await call(t.app, api.minerDetail, { id: s.id, page: 2, limit: 2 }, u.auth)
    expect((rest.data as { records: { list: OutputRecord[] } }).records.list.map((r) => r.day)).toEqual([
      addDays(day, 1),
    ])

    for (const id of [theirs.id, '999999999'])
      expect(await call(t.app, api.minerDetail, { id }, u.auth)).toMatchObject({
        code: Code.NOT_FOUND,
        msg: 'This stake does not exist',
        data: null,
      })
    expect((await call(t.app, api.minerDetail, { id: s.id, parent_id: theirs.id }, u.auth)).code).toBe(Code.INVALID)
    for (const body of [{ id: '0' }, { id: '-1' }, { id: 1 }, { id: '1.5' }, {}])
      expect((await call(t.app, api.minerDetail, body, u.auth)).code, JSON.stringify(body)).toBe(Code.INVALID)
  })

  it('fuel: the total of all personal power and the small-market fuel against the tiers', async () => {
    await setBusinessConfig(t.db, { ...DEFAULT_BUSINESS_CONFIG, fuelTiers: [100, 400, 1000] }, 'test')
    try {
      const fuelOf = async (u: User) => {
        const res = await call(t.app, api.fuel, {}, u.auth)
        expect(res.code).toBe(Code.OK)
        return res.data as Record<string, unknown>
      }
      // a has two legs: b (whose member c stakes 400 PLG for 180 days: 400 USDT of power) and d (30 days, 200 PLG
      // staked: 100 USDT of power); e below d adds 300 PLG for 90 days: 225 USDT. Legs: b 400, d 100 + 225 = 325.
      const { a, b, c } = await chain()
      const d = await user(200n * PLG, a)
      const e = await user(300n * PLG, d)
      await fund(c.id, 400n * PLG)
      const totalBefore = BigInt((await fuelOf(a)).total_fuel as string)
      expect(await fuelOf(a)).toMatchObject({
        tiers: [100, 400, 1000],
        my_fuel: '0',
        team_power: '0',
        largest_leg: '0',
        reached: 0,
        next_tier: 100,
      })
      for (const [u, amount, days] of [
        [c, 400n, 180],
        [d, 200n, 30],
        [e, 300n, 90],
      ] as const)
        expect((await stake(u, amount * PLG, days)).code).toBe(Code.OK)
      const fuel = await fuelOf(a)
      expect(fuel).toMatchObject({
        team_power: String(725n * USDT),
        largest_leg: String(400n * USDT),
        my_fuel: String(325n * USDT),
        reached: 1,
        next_tier: 400,
      })
      expect(BigInt(fuel.total_fuel as string) - totalBefore).toBe(725n * USDT)
      // b's only leg is c: no small market.
      expect(await fuelOf(b)).toMatchObject({ team_power: String(400n * USDT), my_fuel: '0', reached: 0 })
      // All tiers reached: no next tier.
      await setBusinessConfig(t.db, { ...DEFAULT_BUSINESS_CONFIG, fuelTiers: [1, 325] }, 'test')
      expect(await fuelOf(a)).toMatchObject({ tiers: [1, 325], reached: 2, next_tier: null })
    } finally {
      await setBusinessConfig(t.db, DEFAULT_BUSINESS_CONFIG, 'test')
    }
  })

  it("today: the newest settled day's output, power, direct new and recommended power", async () => {
    const { a, b, c } = await chain()
    const d = await user(200n * PLG, a)
    await fund(c.id, 400n * PLG)
    const todayOf = async (u: User) => {
      const res = await call(t.app, api.today, {}, u.auth)
      expect(res.code).toBe(Code.OK)
      return res.data as Record<string, unknown>
    }
    const day = utcDay()
    expect(await todayOf(a)).toEqual({
      day,
      settled_day: null,
      output: [],
      personal_power: '0',
      team_power: '0',
      direct_new_power: '0',
      recommended_power: '0',
    })
    await stake(c, 400n * PLG, 180) // 400 USDT of power, two levels below a
    await stake(d, 200n * PLG, 30) // 100 USDT of power, a direct member of a
    // An event of another day is not today's.
    await t.db
      .insertInto('power_events')
      .values({ user_id: d.id, day: addDays(day, -1), source: 'finance', source_id: '987654321', power: '5' })
      .execute()
    // Settled days and their credits, as the settlement writes them; a running day is not settled yet.
    const yesterday = addDays(day, -1)
    await t.db
      .insertInto('settlement_runs')
      .values([
        { day: addDays(day, -2), status: 'done', phase: 'done' },
        { day: yesterday, status: 'done', phase: 'done' },
        { day, status: 'running', phase: 'stakes' },
      ])
      .execute()
    await t.db
      .insertInto('output_records')
      .values([
        { user_id: a.id, day: yesterday, type: 'referral_reward', parent_id: c.id, asset: 'PLG', amount: '30' },
        { user_id: a.id, day: yesterday, type: 'referral_reward', parent_id: d.id, asset: 'PLG', amount: '12' },
        { user_id: a.id, day: yesterday, type: 'finance_output', parent_id: '1', asset: 'USDT', amount: '7' },
        { user_id: a.id, day: addDays(day, -2), type: 'referral_reward', parent_id: c.id, asset: 'PLG', amount: '99' },
        { user_id: b.id, day: yesterday, type: 'referral_reward', parent_id: c.id, asset: 'PLG', amount: '15' },
      ])
      .execute()
    expect(await todayOf(a)).toEqual({
      day,
      settled_day: yesterday,
      output: [
        { coin: 'PLG', decimals: 9, amount: '42' },
        { coin: 'USDT', decimals: 6, amount: '7' },
      ],
      personal_power: '0',
      team_power: String(500n * USDT),
      direct_new_power: String(100n * USDT),
      recommended_power: String(500n * USDT),
    })
    expect(await todayOf(b)).toMatchObject({
      output: [{ coin: 'PLG', decimals: 9, amount: '15' }],
      direct_new_power: String(400n * USDT),
      recommended_power: String(400n * USDT),
    })
    expect(await todayOf(c)).toMatchObject({
      output: [],
      personal_power: String(400n * USDT),
      direct_new_power: '0',
      recommended_power: '0',
    })
    await t.db.deleteFrom('settlement_runs').execute()
  })

  it("today's new power starts again from zero on a new day, counted from the first new power of that day", async () => {
    const { a, b, c } = await chain()
    await fund(c.id, 400n * PLG)
    const todayOf = async (u: User) => (await call(t.app, api.today, {}, u.auth)).data as Record<string, unknown>
    await stake(c, 200n * PLG, 30) // 100 USDT of power, direct of b, two levels below a
    expect(await todayOf(a)).toMatchObject({ direct_new_power: '0', recommended_power: String(100n * USDT) })
    expect(await todayOf(b)).toMatchObject({ direct_new_power: String(100n * USDT) })
    // The counters belong to yesterday now (as after midnight UTC): they read as zero, team power stays.
    await t.db
      .updateTable('user_power')
      .set({ new_power_day: addDays(utcDay(), -1) })
      .where('user_id', 'in', [a.id, b.id])
      .execute()
    expect(await todayOf(a)).toMatchObject({
      direct_new_power: '0',
      recommended_power: '0',
      team_power: String(100n * USDT),
    })
    // The next new power of the day counts alone, not on top of yesterday's.
    await stake(c, 200n * PLG, 30)
    expect(await todayOf(a)).toMatchObject({ recommended_power: String(100n * USDT), team_power: String(200n * USDT) })
    expect(await todayOf(b)).toMatchObject({
      direct_new_power: String(100n * USDT),
      recommended_power: String(100n * USDT),
    })
  })

  it('the ledger invariants hold', async () => {
    expect(await checkInvariants(t.db)).toEqual([])
  })
})
