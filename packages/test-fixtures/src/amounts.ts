/** One whole coin in base units: PLG has 9 decimals, USDT 6 (as the seed sets them up). Amounts are bigint. */
export const PLG = 1_000_000_000n
export const USDT = 1_000_000n
