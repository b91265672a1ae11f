import { api, Code, type FinanceDeposit, type OutputRecord } from '@solpledge/contract'
import { USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, utcDay } from '../src/lib/day.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { balances, checkInvariants, systemAccount } from '../src/modules/ledger/service.ts'
import { powerOf } from '../src/modules/power/service.ts'
import { accountBalance, call, createSeededApp, dbKind, fundedMember, type Member, type SeededApp } from './helpers.ts'

describe(`finance (${dbKind})`, () => {
  let t: SeededApp
  beforeAll(async () => {
    t = await createSeededApp()
  })
  afterAll(() => t.close())

  /** A logged-in user under `parent` (the root by default) holding `usdt` USDT available. */
  const user = (usdt: bigint, parent: { address: string } = t.root) => fundedMember(t, parent.address, { USDT: usdt })
  type User = Member

  const available = async (u: { id: string }) => (await balances(t.db, u.id)).USDT?.available ?? 0n
  const deposit = (u: User, amount: bigint | string, days: number) =>
    call(t.app, api.financeDeposit, { amount: amount.toString(), days }, u.auth)
  const redeem = (u: User, id: string) => call(t.app, api.financeRedeem, { id }, u.auth)
  const list = async (u: User, status: 'active' | 'expired', page = 1, limit = 10) => {
    const res = await call(t.app, api.financeList, { status, page, limit }, u.auth)
    expect(res.code).toBe(Code.OK)
    return res.data as { list: FinanceDeposit[]; total: number; page: number; limit: number }
  }
  const depositCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('finance_deposits')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const financeBalance = async () => accountBalance(t.db, await systemAccount(t.db, 'USDT', 'finance'))
  /** Matures a deposit as the daily settlement does on its end day (the settlement is another module's work). */
  const mature = (id: string) =>
    t.db
      .updateTable('finance_deposits')
      .set({ status: 'expired', expired_at: new Date() })
      .where('id', '=', id)
      .execute()

  it('lists the products without a session', async () => {
    const res = await call(t.app, api.financeProducts, {})
    expect(res).toMatchObject({ code: Code.OK })
    expect(res.data).toEqual({
      coin: 'USDT',
      decimals: 6,
      list: DEFAULT_BUSINESS_CONFIG.finance.map((p) => ({
        days: p.days,
        power_bps: p.powerBps,
        output_bps: p.outputBps,
      })),
    })
  })

  it('deposits from the balance: principal to the finance account, power to the user and every ancestor', async () => {
    const a = await user(0n)
    const b = await user(0n, a)
    const c = await user(1500n * USDT, b)
    const rootBefore = await powerOf(t.db, t.root.id)
    const before = await financeBalance()
    const res = await deposit(c, 1000n * USDT, 30)
    expect(res).toMatchObject({ code: Code.OK, msg: 'Deposit successful' })
    const d = res.data as FinanceDeposit
    const day = utcDay()
    // 30 days: power ×1.2 = 1200 USDT; output 2.5 % = 25 USDT.
    expect(d).toEqual({
      id: d.id,
      coin: 'USDT',
      decimals: 6,
      amount: String(1000n * USDT),
      days: 30,
      power_bps: 12_000,
      output_bps: 250,
      power: String(1200n * USDT),
      total_output: String(25n * USDT),
      output: '0',
      start_day: day,
      end_day: addDays(day, 30),
      status: 'active',
      redeemable: false,
      redeemed_at: null,
      created_at: d.created_at,
    })
    expect(await available(c)).toBe(500n * USDT)
    expect((await financeBalance()) - before).toBe(1000n * USDT)
    const move = await t.db
      .selectFrom('ledger_transfers')
      .select(['type', 'amount', 'reference'])
      .where('idempotency_key', '=', `finance_deposit:${d.id}`)
      .executeTakeFirstOrThrow()
    expect(move).toEqual({ type: 'finance_deposit', amount: String(1000n * USDT), reference: `finance:${d.id}` })
    // Power, no performance (performance is staked value).
    expect(await powerOf(t.db, c.id)).toEqual({
      personal_power: 1200n * USDT,
      team_power: 0n,
      performance: 0n,
      team_performance: 0n,
    })
    for (const ancestor of [a, b])
      expect(await powerOf(t.db, ancestor.id)).toEqual({
        personal_power: 0n,
        team_power: 1200n * USDT,
        performance: 0n,
        team_performance: 0n,
      })
    const rootAfter = await powerOf(t.db, t.root.id)
    expect(rootAfter.team_power - rootBefore.team_power).toBe(1200n * USDT)
    expect(rootAfter.team_performance).toBe(rootBefore.team_performance)
    const event = await t.db
      .selectFrom('power_events')
      .select(['user_id', 'day', 'power'])
      .where('source', '=', 'finance')
      .where('source_id', '=', d.id)
      .executeTakeFirstOrThrow()
    expect(event).toEqual({ user_id: c.id, day, power: String(1200n * USDT) })
    expect(await list(c, 'active')).toEqual({ list: [d], total: 1, page: 1, limit: 10 })
    expect((await list(c, 'expired')).list).toEqual([])
  })

  it('refuses an unknown period, more than the balance and malformed bodies, with nothing changed', async () => {
    const u = await user(100n * USDT)
    const count = await depositCount()
    expect(await deposit(u, 50n * USDT, 60)).toMatchObject({
      code: Code.INVALID,
      msg: 'Please choose one of the finance periods',
      data: null,
    })
    expect(await deposit(u, 100n * USDT + 1n, 7)).toMatchObject({ code: Code.FAIL, msg: 'Insufficient balance.' })
    expect(await deposit(u, '9'.repeat(38), 7)).toMatchObject({ code: Code.FAIL, msg: 'Insufficient balance.' })
    for (const body of [
      { amount: '0', days: 7 },
      { amount: '-1', days: 7 },
      { amount: '1.5', days: 7 },
      { amount: '1e6', days: 7 },
      { amount: '9'.repeat(39), days: 7 },
      { amount: '', days: 7 },
      { amount: 5_000_000, days: 7 },
      { amount: '5000000', days: 0 },
      { amount: '5000000', days: -7 },
      { amount: '5000000', days: 7.5 },
      { amount: '5000000', days: '7' },
      { amount: '5000000' },
      { days: 7 },
      { amount: '5000000', days: 7, coin: 'USDT' },
    ])
      expect((await call(t.app, api.financeDeposit, body, u.auth)).code, JSON.stringify(body)).toBe(Code.INVALID)
    expect((await call(t.app, api.financeDeposit, { amount: '5000000', days: 7 })).code).toBe(Code.SESSION_INVALID)
    expect(await depositCount()).toBe(count)
    expect(await available(u)).toBe(100n * USDT)
    expect((await powerOf(t.db, u.id)).personal_power).toBe(0n)
  })

  it('concurrent deposits that each fit but not together: exactly one succeeds', async () => {
    const u = await user(1000n * USDT)
    const results = await Promise.all([deposit(u, 600n * USDT, 7), deposit(u, 600n * USDT, 30)])
    expect(results.filter((r) => r.code === Code.OK)).toHaveLength(1)
    expect(results.filter((r) => r.msg === 'Insufficient balance.')).toHaveLength(1)
    expect(await available(u)).toBe(400n * USDT)
    expect((await list(u, 'active')).total).toBe(1)
    expect(await checkInvariants(t.db)).toEqual([])
  })

  it('lists by status newest first with paging; details with output records', async () => {
    const u = await user(1000n * USDT)
    const ids: string[] = []
    for (const days of [7, 30, 90, 180]) ids.push(((await deposit(u, 100n * USDT, days)).data as FinanceDeposit).id)
    expect((await list(u, 'active', 1, 3)).list.map((d) => d.id)).toEqual([ids[3], ids[2], ids[1]])
    expect(await list(u, 'active', 2, 3)).toMatchObject({ total: 4, page: 2, limit: 3 })
    await mature(ids[0] as string)
    expect((await list(u, 'active')).list.map((d) => d.id)).toEqual([ids[3], ids[2], ids[1]])
    const expired = await list(u, 'expired')
    expect(expired.list.map((d) => [d.id, d.status, d.redeemable])).toEqual([[ids[0], 'expired', true]])

    // Output records and released output as the settlement writes them.
    const day = utcDay()
    const id = ids[1] as string
    await t.db
      .insertInto('output_records')
      .values([
        { user_id: u.id, day: addDays(day, 1), type: 'finance_output', parent_id: id, asset: 'USDT', amount: '83333' },
        { user_id: u.id, day: addDays(day, 2), type: 'finance_output', parent_id: id, asset: 'USDT', amount: '83334' },
        { user_id: u.id, day: addDays(day, 2), type: 'pledge_output', parent_id: id, asset: 'PLG', amount: '1' },
      ])
      .execute()
    await t.db.updateTable('finance_deposits').set({ released: '166667' }).where('id', '=', id).execute()
    const res = await call(t.app, api.financeDetail, { id }, u.auth)
    expect(res.code).toBe(Code.OK)
    const { detail, records } = res.data as {
      detail: FinanceDeposit
      records: { list: OutputRecord[]; total: number; page: number; limit: number }
    }
    expect(detail).toMatchObject({ id, days: 30, output: '166667', total_output: '2500000', status: 'active' })
    expect(records).toMatchObject({ total: 2, page: 1, limit: 10 })
    expect(records.list.map((r) => [r.day, r.amount, r.coin, r.decimals, r.type])).toEqual([
      [addDays(day, 2), '83334', 'USDT', 6, 'finance_output'],
      [addDays(day, 1), '83333', 'USDT', 6, 'finance_output'],
    ])
  })

  it('redeems a matured deposit once; refuses before maturity, twice, and for another user', async () => {
    const u = await user(500n * USDT)
    const other = await user(0n)
    const d = (await deposit(u, 300n * USDT, 7)).data as FinanceDeposit
    expect(await redeem(u, d.id)).toMatchObject({
      code: Code.FAIL,
      msg: `This deposit matures on ${d.end_day} and cannot be redeemed before`,
      data: null,
    })
    await mature(d.id)
    for (const id of [d.id, '999999999']) {
      expect(await redeem(other, id)).toMatchObject({ code: Code.NOT_FOUND, msg: 'This deposit does not exist' })
      expect(await call(t.app, api.financeDetail, { id }, other.auth)).toMatchObject({
        code: Code.NOT_FOUND,
        msg: 'This deposit does not exist',
      })
    }
    expect(await available(u)).toBe(200n * USDT)
    const res = await redeem(u, d.id)
    expect(res).toMatchObject({ code: Code.OK, msg: 'Successfully redeemed to asset balance' })
    const done = res.data as FinanceDeposit
    expect(done).toMatchObject({ id: d.id, status: 'expired', redeemable: false })
    expect(done.redeemed_at).not.toBeNull()
    expect(await available(u)).toBe(500n * USDT)
    expect(await available(other)).toBe(0n)
    const move = await t.db
      .selectFrom('ledger_transfers')
      .select(['type', 'amount', 'reference'])
      .where('idempotency_key', '=', `finance_redeem:${d.id}`)
      .executeTakeFirstOrThrow()
    expect(move).toEqual({ type: 'finance_redeem', amount: String(300n * USDT), reference: `finance:${d.id}` })
    expect(await redeem(u, d.id)).toMatchObject({ code: Code.FAIL, msg: 'This deposit has already been redeemed' })
    expect(await available(u)).toBe(500n * USDT)
    for (const body of [{ id: '0' }, { id: '-1' }, { id: 5 }, { id: '1.5' }, {}])
      expect((await call(t.app, api.financeRedeem, body, u.auth)).code, JSON.stringify(body)).toBe(Code.INVALID)
  })

  it('concurrent redeems of one deposit credit it exactly once', async () => {
    const u = await user(1000n * USDT)
    const d = (await deposit(u, 1000n * USDT, 7)).data as FinanceDeposit
    await mature(d.id)
    const results = await Promise.all(Array.from({ length: 20 }, () => redeem(u, d.id)))
    expect(results.filter((r) => r.code === Code.OK)).toHaveLength(1)
    expect(results.filter((r) => r.msg === 'This deposit has already been redeemed')).toHaveLength(19)
    expect(await available(u)).toBe(1000n * USDT)
    const credits = await t.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('type', '=', 'finance_redeem')
      .where('reference', '=', `finance:${d.id}`)
      .execute()
    expect(credits).toHaveLength(1)
    expect(await checkInvariants(t.db)).toEqual([])
  })

  it('the ledger invariants hold', async () => {
    expect(await checkInvariants(t.db)).toEqual([])
  })
})
