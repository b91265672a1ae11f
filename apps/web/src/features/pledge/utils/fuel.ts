/** Where a fuel figure stands against ascending tiers (docs/design.md#power-and-performance). */
export interface FuelProgress {
  /** How many tiers the fuel has reached. */
  reached: number
  /** The next tier to reach, or null when all are reached. */
  next: number | null
  /** Fuel still missing to the next tier (in the fuel's units), or null when all are reached. */
  toNext: bigint | null
  /**
   * How far the bar is filled, 0 … 100: each tier gets an equal share of the bar (so the small first tiers stay
   * visible), filled in proportion between the previous tier and the next.
   */
  percent: number
}

/**
 * The fuel bar of `fuel` against `tiers` (ascending, positive, whole numbers). `unit`: how many units of `fuel` make
 * one of a tier, e.g. 10^6 when the fuel is power in USDT base units and the tiers are whole USDT.
 */
export function fuelProgress(fuel: bigint, tiers: readonly number[], unit = 1n): FuelProgress {
  const steps = tiers.map((tier) => BigInt(tier) * unit)
  const reached = steps.filter((tier) => fuel >= tier).length
  const next = steps[reached]
  if (next === undefined) return { reached, next: null, toNext: null, percent: steps.length > 0 ? 100 : 0 }
  const previous = reached > 0 ? (steps[reached - 1] as bigint) : 0n
  const within = fuel > previous ? fuel - previous : 0n
  // Basis points of the bar, in integers: (reached + within / span) / tiers.
  const bps = ((BigInt(reached) * 10_000n + (within * 10_000n) / (next - previous)) / BigInt(steps.length)) as bigint
  return { reached, next: tiers[reached] as number, toNext: next - fuel, percent: Number(bps) / 100 }
}

/** Positions of the tier marks on the bar, 0 … 100 (the end of each tier's equal share). */
export const tierMarks = (tiers: readonly number[]) => tiers.map((_, index) => ((index + 1) * 100) / tiers.length)
