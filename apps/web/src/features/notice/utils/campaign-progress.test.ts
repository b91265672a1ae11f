import type { UserCampaign } from '@solpledge/contract/client'
import { USDT } from '@solpledge/test-fixtures'
import { describe, expect, it } from 'vitest'
import { campaignProgress, percentOf } from './campaign-progress.ts'

const campaign = (direct: number, fuel: bigint, tier: number): UserCampaign => ({
  id: '1',
  title: 'Bangkok',
  body: '',
  lang: 'en',
  starts_at: '2026-11-01T00:00:00.000Z',
  ends_at: '2026-12-01T00:00:00.000Z',
  status: 'running',
  decimals: 6,
  tiers: [
    { min_direct: 1, min_fuel: (3000n * USDT).toString(), reward: { kind: 'trip', places: 1 } },
    { min_direct: 3, min_fuel: (10_000n * USDT).toString(), reward: { kind: 'node', level: 'junior' } },
  ],
  direct_count: direct,
  fuel: fuel.toString(),
  tier,
})

describe('campaign progress', () => {
  it('gives each tier what is had, what is left and how far along, exactly', () => {
    const [first, second] = campaignProgress(campaign(2, 4500n * USDT, 1))
    expect(first).toMatchObject({ tier: 1, reached: true, direct: { left: 0, percent: 100 } })
    expect(first?.fuel).toMatchObject({ left: 0n, percent: 100 })
    expect(second).toMatchObject({ tier: 2, reached: false, direct: { have: 2, need: 3, left: 1, percent: 66 } })
    expect(second?.fuel).toEqual({ have: 4500n * USDT, need: 10_000n * USDT, left: 5500n * USDT, percent: 45 })
  })

  it('takes what is reached from the server and never goes past 100 %', () => {
    expect(campaignProgress(campaign(0, 0n, 0)).map((tier) => tier.reached)).toEqual([false, false])
    expect(percentOf(10n ** 30n, 1n)).toBe(100)
    expect(percentOf(0n, 0n)).toBe(100)
    expect(percentOf(1n, 3n)).toBe(33)
  })
})
