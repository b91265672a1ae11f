import {
  api,
  Code,
  type FinanceDeposit,
  financeReturns,
  nodeReturns,
  type OutputRecord,
  type PledgeConfig,
  type Stake,
  stakeReturns,
  toUsdt,
  type UserNode,
} from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, utcDay } from '../src/lib/day.ts'
import { call, createSeededApp, dbKind, fundedMember, type SeededApp } from './helpers.ts'

/**
 * The returns the app shows before money moves (packages/contract/src/returns.ts) against what the settlement then
 * really pays for the same positions, through the routes: the estimate must be the payout, to the base unit.
 */
describe(`expected returns = what the settlement pays (${dbKind})`, () => {
  let t: SeededApp
  beforeAll(async () => {
    t = await createSeededApp()
  })
  afterAll(() => t.close())

  const ok = async <T>(promise: Promise<{ code: number; msg: string; data?: unknown }>) => {
    const res = await promise
    expect(res.code, res.msg).toBe(Code.OK)
    return res.data as T
  }
  const settle = (day: string) =>
    ok(call(t.app, api.settlementRun, { day }, { headers: { 'operator-token': t.platform.operatorToken } }))

  it('a stake, a finance deposit and a node earn per day and in total what their cards and calculators said', async () => {
    // Another holder's senior node (weight 5) first: a junior node bought next shares the pool with it.
    const other = await fundedMember(t, t.root.address, { USDT: 2000n * USDT })
    await ok(call(t.app, api.nodeBuy, { level: 'senior', pay: 'balance' }, other.auth))

    const user = await fundedMember(t, t.root.address, { PLG: 1000n * PLG, USDT: 2000n * USDT })
    // Amounts that do not divide evenly, so that every rounding shows.
    const staked = 333n * PLG + 333_333_333n
    const deposited = 1000n * USDT + 123n

    const config = await ok<PledgeConfig>(
      call(t.app, { ...api.pledgeConfig, path: api.pledgeConfig.path.replace(':product', 'PLG') }, {}),
    )
    const period = config.periods.find((p) => p.days === 30) as PledgeConfig['periods'][number]
    const stakeEstimate = stakeReturns(staked, { price: config.price, decimals: config.decimals }, period)
    const products = await ok<{ list: { days: number; power_bps: number; output_bps: number }[] }>(
      call(t.app, api.financeProducts, {}),
    )
    const term = products.list.find((p) => p.days === 7) as (typeof products.list)[number]
    const financeEstimate = financeReturns(deposited, term)
    const levels = await ok<{
      list: { code: string; price_usdt: string; dividend_weight: number }[]
      pool: { coin: string; decimals: number; daily: string; total_weight: string; price: string }
    }>(call(t.app, api.nodeLevel, {}))
    expect(levels.pool).toEqual({
      coin: 'PLG',
      decimals: 9,
      daily: '1000000000000',
      total_weight: '5',
      price: '500000',
    })
    const junior = levels.list.find((l) => l.code === 'junior') as (typeof levels.list)[number]
    const nodeEstimate = nodeReturns(junior, levels.pool)
    // 1,000 PLG a day among weights 5 + 1.
    expect(nodeEstimate.daily).toBe(166_666_666_666n)

    const stake = await ok<Stake>(call(t.app, api.pledgeStake, { amount: staked.toString(), days: 30 }, user.auth))
    expect(BigInt(stake.total_output)).toBe(stakeEstimate.total)
    expect(BigInt(stake.power)).toBe(stakeEstimate.power)
    expect(BigInt(stake.usdt_value)).toBe(stakeEstimate.usdtValue)
    const deposit = await ok<FinanceDeposit>(
      call(t.app, api.financeDeposit, { amount: deposited.toString(), days: 7 }, user.auth),
    )
    expect(BigInt(deposit.total_output)).toBe(financeEstimate.total)
    expect(BigInt(deposit.power)).toBe(financeEstimate.power)
    const node = await ok<UserNode>(call(t.app, api.nodeBuy, { level: 'junior', pay: 'balance' }, user.auth))

    // Day 1 of every position: the settlement run at 00:00 UTC tomorrow.
    const first = addDays(utcDay(), 1)
    await settle(first)
    const stakeDetail = await ok<{ records: { list: OutputRecord[] } }>(
      call(t.app, api.minerDetail, { id: stake.id }, user.auth),
    )
    expect(stakeDetail.records.list.map((r) => [r.day, BigInt(r.amount)])).toEqual([[first, stakeEstimate.daily]])
    const financeDetail = await ok<{ records: { list: OutputRecord[] } }>(
      call(t.app, api.financeDetail, { id: deposit.id }, user.auth),
    )
    expect(financeDetail.records.list.map((r) => [r.day, BigInt(r.amount)])).toEqual([[first, financeEstimate.daily]])
    const mine = await ok<{ list: UserNode[] }>(call(t.app, api.myNodes, {}, user.auth))
    expect(mine.list.find((n) => n.id === node.id)?.dividends).toBe(nodeEstimate.daily.toString())

    // The day's earnings the home screen shows: the stake's and the node's PLG, the deposit's USDT, and their value
    // at the price the estimates used.
    const today = await ok<{ settled_day: string; output: { coin: string; amount: string }[] }>(
      call(t.app, api.today, {}, user.auth),
    )
    expect(today.settled_day).toBe(first)
    const plg = BigInt(today.output.find((o) => o.coin === 'PLG')?.amount ?? '0')
    expect(plg).toBe(stakeEstimate.daily + nodeEstimate.daily)
    expect(toUsdt(stakeEstimate.daily, 9, BigInt(config.price))).toBe(stakeEstimate.dailyUsdt)
    expect(today.output.find((o) => o.coin === 'USDT')?.amount).toBe(financeEstimate.dailyUsdt.toString())

    // Through the deposit's last day: the regular days, then the rest; in all exactly the total.
    for (let day = 2; day <= 7; day++) await settle(addDays(first, day - 1))
    const records = await ok<{ records: { list: OutputRecord[] } }>(
      call(t.app, api.financeDetail, { id: deposit.id, limit: 20 }, user.auth),
    )
    const paid = records.records.list.map((r) => BigInt(r.amount)).reverse()
    expect(paid).toEqual([...Array.from({ length: 6 }, () => financeEstimate.daily), financeEstimate.last])
    expect(paid.reduce((a, b) => a + b, 0n)).toBe(financeEstimate.total)
    const stakeRecords = await ok<{ records: { list: OutputRecord[] } }>(
      call(t.app, api.minerDetail, { id: stake.id, limit: 20 }, user.auth),
    )
    expect(new Set(stakeRecords.records.list.map((r) => BigInt(r.amount)))).toEqual(new Set([stakeEstimate.daily]))
    expect(stakeRecords.records.list).toHaveLength(7)
  })
})
