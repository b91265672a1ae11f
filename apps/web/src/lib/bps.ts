/** Rates and multiples are basis points: 10000 = 100 % = ×1. */
export const BPS = 10_000n

/**
 * `amount` × `bps` / 10000, rounded down as the server rounds payouts (docs/design.md#rounding): exact for any amount.
 */
export const applyBps = (amount: bigint, bps: number) => (amount * BigInt(Math.trunc(bps))) / BPS
