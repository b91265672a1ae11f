import type { BusinessConfig } from './business-config.ts'

const usdt = (whole: number) => (BigInt(whole) * 1_000_000n).toString()

/**
 * Demo values seeded on the first start on the local chain, or with SEED_DEMO=1 (the operator console changes them).
 * Rates in basis points. A version stored before a top-level field existed takes that field from here.
 */
export const DEFAULT_BUSINESS_CONFIG: BusinessConfig = {
  pledge: {
    minUsdt: usdt(100),
    periods: [
      { days: 30, outputBps: 10_600, powerBps: 10_000 },
      { days: 90, outputBps: 12_000, powerBps: 15_000 },
      { days: 180, outputBps: 14_500, powerBps: 20_000 },
    ],
  },
  nodeLevels: [
    { code: 'junior', priceUsdt: usdt(500), supplyCap: 1000, powerBonusBps: 1000, dividendWeight: 1, onePerUser: true },
    { code: 'senior', priceUsdt: usdt(2000), supplyCap: 300, powerBonusBps: 2500, dividendWeight: 5, onePerUser: true },
    { code: 'super', priceUsdt: usdt(10000), supplyCap: 50, powerBonusBps: 6000, dividendWeight: 30, onePerUser: true },
  ],
  finance: [
    { days: 7, powerBps: 10_000, outputBps: 50 },
    { days: 30, powerBps: 12_000, outputBps: 250 },
    { days: 90, powerBps: 15_000, outputBps: 900 },
    { days: 180, powerBps: 20_000, outputBps: 2000 },
  ],
  referralRewards: [
    { level: 1, rateBps: 1000 },
    { level: 2, rateBps: 500 },
    { level: 3, rateBps: 300 },
  ],
  fuelTiers: [3000, 10000, 20000, 50000, 100000],
  settlementHourUtc: 0,
  rankIntervalSeconds: 3600,
  // 1000 PLG (9 decimals) a day for all nodes together.
  nodePoolDaily: (1000n * 1_000_000_000n).toString(),
  referencePrice: '500000',
  // The last 24 hours in 24 one-hour intervals, fills within ±20 % of the reference, at least 1000 USDT of them.
  valuation: { windowSeconds: 86_400, bandBps: 2000, minQuoteVolume: usdt(1000) },
  // Referral rewards only to referrers who stake themselves: one minimum stake's worth (docs/economics.md).
  referralGuard: { minStakeUsdt: usdt(100), directPerLevel: false },
  // A day paying more than ×5 its trailing week's average, or 10 % of the reserves, waits for an admin.
  settlementBreaker: { averageMultipleBps: 50_000, reserveShareBps: 1000 },
  // 0.0001 USDT ticks, 0.01 PLG lots (tick × lot = 10^9: one whole PLG), orders of 1 … 10,000,000 PLG, 0.1 % fee.
  trade: {
    tickSize: '100',
    lotSize: 10_000_000n.toString(),
    minAmount: 1_000_000_000n.toString(),
    maxAmount: (10_000_000n * 1_000_000_000n).toString(),
    feeBps: 10,
  },
}
