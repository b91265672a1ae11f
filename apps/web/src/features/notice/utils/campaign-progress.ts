import type { UserCampaign } from '@solpledge/contract/client'

/** One tier's two minimums against the user's figures: how far along each is (0–100) and what is left. */
export interface TierProgress {
  /** 1-based. */
  tier: number
  reached: boolean
  direct: { have: number; need: number; left: number; percent: number }
  /** USDT base units of power. */
  fuel: { have: bigint; need: bigint; left: bigint; percent: number }
}

/** Whole percent of `have` against `need`, at most 100 (100 when nothing is needed); exact, no floating point. */
export function percentOf(have: bigint, need: bigint): number {
  if (need <= 0n || have >= need) return 100
  if (have <= 0n) return 0
  return Number((have * 100n) / need)
}

/** Every tier of a campaign against the user's figures; `reached` as the server says (the highest tier and those below). */
export function campaignProgress(campaign: UserCampaign): TierProgress[] {
  const fuel = BigInt(campaign.fuel)
  return campaign.tiers.map((tier, index) => {
    const needFuel = BigInt(tier.min_fuel)
    return {
      tier: index + 1,
      reached: index < campaign.tier,
      direct: {
        have: campaign.direct_count,
        need: tier.min_direct,
        left: Math.max(0, tier.min_direct - campaign.direct_count),
        percent: percentOf(BigInt(campaign.direct_count), BigInt(tier.min_direct)),
      },
      fuel: {
        have: fuel,
        need: needFuel,
        left: needFuel > fuel ? needFuel - fuel : 0n,
        percent: percentOf(fuel, needFuel),
      },
    }
  })
}
