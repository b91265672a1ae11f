import { describe, expect, it } from 'vitest'
import { fuelProgress, tierMarks } from './fuel.ts'

const tiers = [3000, 10000, 20000, 50000, 100000]

describe('fuelProgress', () => {
  it('is empty without fuel', () => {
    expect(fuelProgress(0n, tiers)).toEqual({ reached: 0, next: 3000, toNext: 3000n, percent: 0 })
  })

  it('fills the first tier’s share in proportion', () => {
    expect(fuelProgress(1500n, tiers)).toEqual({ reached: 0, next: 3000, toNext: 1500n, percent: 10 })
  })

  it('counts a tier as reached at exactly its figure', () => {
    expect(fuelProgress(3000n, tiers)).toEqual({ reached: 1, next: 10000, toNext: 7000n, percent: 20 })
    expect(fuelProgress(2999n, tiers).reached).toBe(0)
  })

  it('fills between the previous tier and the next', () => {
    // Tier 2 spans 3000 … 10000: 6500 is half way, so 20 % + half of 20 %.
    expect(fuelProgress(6500n, tiers)).toEqual({ reached: 1, next: 10000, toNext: 3500n, percent: 30 })
    expect(fuelProgress(75000n, tiers)).toEqual({ reached: 4, next: 100000, toNext: 25000n, percent: 90 })
  })

  it('is full once every tier is reached', () => {
    expect(fuelProgress(100000n, tiers)).toEqual({ reached: 5, next: null, toNext: null, percent: 100 })
    expect(fuelProgress(10n ** 30n, tiers)).toEqual({ reached: 5, next: null, toNext: null, percent: 100 })
  })

  it('rounds the fill down to a hundredth of a percent and never overshoots the next mark', () => {
    expect(fuelProgress(1n, tiers).percent).toBe(0)
    expect(fuelProgress(9999n, tiers).percent).toBe(39.99)
  })

  it('compares fuel in base units with tiers in whole units', () => {
    const usdt = 1_000_000n
    expect(fuelProgress(2_999_999_999n, tiers, usdt)).toEqual({
      reached: 0,
      next: 3000,
      toNext: 1n,
      percent: 19.99,
    })
    expect(fuelProgress(3_000_000_000n, tiers, usdt)).toEqual({
      reached: 1,
      next: 10000,
      toNext: 7_000_000_000n,
      percent: 20,
    })
    expect(fuelProgress(100_000_000_000n, tiers, usdt).reached).toBe(5)
  })

  it('copes with no tiers at all', () => {
    expect(fuelProgress(500n, [])).toEqual({ reached: 0, next: null, toNext: null, percent: 0 })
  })
})

describe('tierMarks', () => {
  it('puts each tier at the end of its equal share', () => {
    expect(tierMarks(tiers)).toEqual([20, 40, 60, 80, 100])
    expect(tierMarks([])).toEqual([])
  })
})
