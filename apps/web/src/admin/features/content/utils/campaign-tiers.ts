import { type CampaignTier, formatAmount, parseAmount } from '@solpledge/contract/client'

/**
 * A campaign's tiers as the console edits them: text fields, the fuel in USDT (of power) as people type it. The server
 * checks the rest (tiers ascend, the node level exists) and says which tier is wrong.
 */
export interface TierDraft {
  direct: string
  /** Small-market fuel in USDT, e.g. '3000' or '2500.5'. */
  fuel: string
  kind: CampaignTier['reward']['kind']
  level: string
  places: string
  text: string
}

export type TierProblem = 'direct' | 'fuel' | 'level' | 'places' | 'text'

const WHOLE = /^(0|[1-9][0-9]{0,6})$/

/** The spec's event tiers (3,000 … 100,000 of fuel), one more direct referral each, a trip place as the reward. */
export function defaultTiers(fuelTiers: readonly number[] = [3000, 10_000, 20_000, 50_000, 100_000]): TierDraft[] {
  return fuelTiers.map((fuel, i) => ({
    direct: String(i + 1),
    fuel: String(fuel),
    kind: 'trip',
    level: '',
    places: '1',
    text: '',
  }))
}

export function tiersDraft(tiers: readonly CampaignTier[], decimals: number): TierDraft[] {
  return tiers.map((tier) => ({
    direct: String(tier.min_direct),
    fuel: formatAmount(tier.min_fuel, decimals),
    kind: tier.reward.kind,
    level: tier.reward.kind === 'node' ? tier.reward.level : '',
    places: tier.reward.kind === 'trip' ? String(tier.reward.places) : '1',
    text: tier.reward.kind === 'text' ? tier.reward.text : '',
  }))
}

/** The tiers to send, or the first field that cannot be sent (its tier's index). */
export function readTiers(
  drafts: readonly TierDraft[],
  decimals: number,
): { ok: true; value: CampaignTier[] } | { ok: false; index: number; problem: TierProblem } {
  const value: CampaignTier[] = []
  for (const [index, draft] of drafts.entries()) {
    const fail = (problem: TierProblem) => ({ ok: false as const, index, problem })
    const direct = draft.direct.trim()
    if (!WHOLE.test(direct)) return fail('direct')
    const fuel = parseAmount(draft.fuel.trim().replaceAll(',', ''), decimals)
    if (!fuel.ok) return fail('fuel')
    let reward: CampaignTier['reward']
    if (draft.kind === 'node') {
      if (draft.level === '') return fail('level')
      reward = { kind: 'node', level: draft.level }
    } else if (draft.kind === 'trip') {
      const places = Number(draft.places.trim())
      if (!WHOLE.test(draft.places.trim()) || places < 1 || places > 100) return fail('places')
      reward = { kind: 'trip', places }
    } else {
      const text = draft.text.trim()
      if (text === '' || text.length > 200) return fail('text')
      reward = { kind: 'text', text }
    }
    value.push({ min_direct: Number(direct), min_fuel: fuel.value.toString(), reward })
  }
  return { ok: true, value }
}
