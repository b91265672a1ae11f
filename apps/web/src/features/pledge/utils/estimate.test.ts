import { describe, expect, it } from 'vitest'
import { stakeEstimate } from './estimate.ts'

describe('stakeEstimate', () => {
  // 0.5 USDT per PLG (9 decimals); 30 days, output ×1.06, power ×1.5.
  const config = { price: '500000', decimals: 9 }
  const period = { days: 30, output_bps: 10_600, power_bps: 15_000 }

  it('values, outputs and powers a stake like the server', () => {
    expect(stakeEstimate(200_000_000_000n, config, period)).toEqual({
      usdtValue: 100_000_000n,
      totalOutput: 212_000_000_000n,
      dailyOutput: 7_066_666_666n,
      power: 150_000_000n,
    })
  })

  it('rounds every figure down', () => {
    expect(stakeEstimate(3n, config, period)).toEqual({ usdtValue: 0n, totalOutput: 3n, dailyOutput: 0n, power: 0n })
    expect(stakeEstimate(1_000_000_001n, { price: '333333', decimals: 9 }, period)).toEqual({
      usdtValue: 333_333n,
      totalOutput: 1_060_000_001n,
      dailyOutput: 35_333_333n,
      power: 499_999n,
    })
  })
})
