import { describe, expect, it } from 'vitest'
import { financeReturns, nodeReturns, receivedBy, releaseSchedule, stakeReturns, toUsdt, worthOf } from './returns.ts'

// The demo's figures: PLG has 9 decimals, 0.5 USDT (6 decimals) per whole token.
const market = { price: 500_000n, decimals: 9 }

describe('releaseSchedule', () => {
  it('pays floor(total / N) a day and the rest on the last day, adding up to the total', () => {
    expect(releaseSchedule(7n, 3)).toEqual({ daily: 2n, last: 3n })
    expect(releaseSchedule(2n, 5)).toEqual({ daily: 0n, last: 2n })
    expect(releaseSchedule(212_000_000_000n, 30)).toEqual({ daily: 7_066_666_666n, last: 7_066_666_686n })
    for (const [total, days] of [
      [1_000_000_007n, 7],
      [99n, 180],
      [0n, 30],
    ] as const) {
      const { daily, last } = releaseSchedule(total, days)
      expect(daily * BigInt(days - 1) + last).toBe(total)
    }
  })
})

describe('stakeReturns', () => {
  const period = { days: 30, output_bps: 10_600, power_bps: 15_000 }

  it('values, outputs and powers a stake like the server, in the token and in USDT', () => {
    const r = stakeReturns(200_000_000_000n, market, period)
    expect(r).toMatchObject({
      days: 30,
      usdtValue: 100_000_000n,
      power: 150_000_000n,
      total: 212_000_000_000n,
      daily: 7_066_666_666n,
      last: 7_066_666_686n,
      dailyUsdt: 3_533_333n,
      totalUsdt: 106_000_000n,
    })
    // ×1.06 over 30 days: the principal is spent, so the gain is 6 % in 30 days, 73 % a year.
    expect(Number(r.apr.num) / Number(r.apr.den)).toBeCloseTo(0.73, 12)
    expect(r.apr.num * 100n).toBe(r.apr.den * 73n)
  })

  it('rounds every amount down, and the rate follows what is really paid', () => {
    const r = stakeReturns(3n, market, period)
    expect(r).toMatchObject({ usdtValue: 0n, total: 3n, daily: 0n, last: 3n, power: 0n })
    expect(r.apr.num).toBe(0n)
    expect(stakeReturns(1_000_000_001n, { price: '333333', decimals: 9 }, period)).toMatchObject({
      usdtValue: 333_333n,
      total: 1_060_000_001n,
      daily: 35_333_333n,
      power: 499_999n,
    })
  })

  it('gives a negative rate for an output below the stake', () => {
    const r = stakeReturns(1_000_000_000n, market, { days: 10, output_bps: 9_000, power_bps: 10_000 })
    expect(r.apr.num < 0n).toBe(true)
    expect(r.apr.num * 100n).toBe(r.apr.den * -365n)
  })
})

describe('financeReturns', () => {
  it('pays the whole output as interest; the principal comes back', () => {
    const r = financeReturns(100_000_000n, { days: 7, output_bps: 50, power_bps: 10_000 })
    expect(r).toMatchObject({ total: 500_000n, daily: 71_428n, last: 71_432n, dailyUsdt: 71_428n, power: 100_000_000n })
    // 0.5 % in 7 days: 26.071428… % a year.
    expect(r.apr.num * 7000n).toBe(r.apr.den * 1825n)
  })

  it('rounds down: a deposit too small to earn earns nothing', () => {
    const r = financeReturns(199n, { days: 7, output_bps: 50, power_bps: 15_000 })
    expect(r).toMatchObject({ total: 0n, daily: 0n, last: 0n, power: 298n })
    expect(financeReturns(0n, { days: 7, output_bps: 50, power_bps: 0 }).apr).toEqual({ num: 0n, den: 1n })
  })
})

describe('nodeReturns', () => {
  const pool = { daily: 1_000_000_000_000n, total_weight: '3', decimals: 9, price: '500000' }

  it("shares the pool by weight with the nodes sold, this node's weight included", () => {
    const r = nodeReturns({ price_usdt: '500000000', dividend_weight: 1 }, pool)
    // 1,000 PLG a day among 3 + 1 weight: 250 PLG = 125 USDT a day, 45,625 USDT a year on 500 USDT.
    expect(r).toMatchObject({
      days: null,
      daily: 250_000_000_000n,
      dailyUsdt: 125_000_000n,
      totalUsdt: 45_625_000_000n,
    })
    expect(r.apr.num).toBe(r.apr.den * 91n + r.apr.den / 4n)
  })

  it('pays nothing from an empty pool, and a first node takes the whole pool', () => {
    expect(nodeReturns({ price_usdt: '1', dividend_weight: 1 }, { ...pool, daily: '0' }).daily).toBe(0n)
    expect(nodeReturns({ price_usdt: '1', dividend_weight: 2 }, { ...pool, total_weight: '0' }).daily).toBe(
      1_000_000_000_000n,
    )
    expect(nodeReturns({ price_usdt: '1', dividend_weight: 0 }, { ...pool, total_weight: '0' }).daily).toBe(0n)
  })
})

describe('receivedBy', () => {
  it('adds up the regular days, then the whole total from the last day on', () => {
    const r = stakeReturns(200_000_000_000n, market, { days: 30, output_bps: 10_600, power_bps: 10_000 })
    expect(receivedBy(r, 1)).toEqual({ amount: 7_066_666_666n, usdt: 3_533_333n })
    expect(receivedBy(r, 29)).toEqual({ amount: 204_933_333_314n, usdt: 102_466_666n })
    expect(receivedBy(r, 30)).toEqual({ amount: 212_000_000_000n, usdt: 106_000_000n })
    expect(receivedBy(r, 31).amount).toBe(212_000_000_000n)
    const f = financeReturns(100_000_000n, { days: 7, output_bps: 50, power_bps: 10_000 })
    expect(receivedBy(f, 7)).toEqual({ amount: 500_000n, usdt: 500_000n })
  })
})

describe('toUsdt and worthOf', () => {
  it('convert at the price, worthOf rounding up so the amount is worth at least the USDT', () => {
    expect(toUsdt(1_000_000_000n, 9, 500_000n)).toBe(500_000n)
    expect(worthOf(100_000_000n, 9, 500_000n)).toBe(200_000_000_000n)
    expect(worthOf(1n, 9, 333_333n)).toBe(3001n)
    expect(toUsdt(3001n, 9, 333_333n) >= 1n).toBe(true)
  })
})
