import { type BusinessConfig, DEFAULT_BUSINESS_CONFIG } from '@solpledge/contract'

// The demo values are the contract's (packages/contract/src/business-defaults.ts): the console's tests start from them.
export { DEFAULT_BUSINESS_CONFIG }

/**
 * The first version on a real cluster without SEED_DEMO (docs/operations.md, "Business configuration"): nothing for
 * sale and nothing paid until the operator sets it in the console — no node levels, no finance products, no referral
 * rewards, an empty node pool, one staking period that returns the stake with no yield, and a placeholder reference
 * price of one trade tick (0.0001 USDT per token, which makes the staking minimum a million tokens until it is set).
 * The structural settings (trade ticks and lots, the valuation window, fuel tiers, settlement hour) keep their defaults.
 */
export const PRODUCTION_BUSINESS_CONFIG: BusinessConfig = {
  ...DEFAULT_BUSINESS_CONFIG,
  pledge: {
    minUsdt: DEFAULT_BUSINESS_CONFIG.pledge.minUsdt,
    periods: [{ days: 30, outputBps: 10_000, powerBps: 10_000 }],
  },
  nodeLevels: [],
  finance: [],
  referralRewards: [],
  nodePoolDaily: '0',
  referencePrice: DEFAULT_BUSINESS_CONFIG.trade.tickSize,
}
