// The quick-trade market's rules from the business configuration, and the arithmetic every fill shares (docs/trade.md).
import { amountParam, type BusinessConfig } from '@solpledge/contract'
import { invalid, refuse } from '../../lib/app-error.ts'
import { QUOTE } from '../config/index.ts'

export interface MarketRules {
  symbol: string
  baseDecimals: number
  quoteDecimals: number
  /** One whole token in base units: a price is USDT base units per this many base units. */
  baseUnit: bigint
  tick: bigint
  lot: bigint
  min: bigint
  max: bigint
  feeBps: number
}

export function marketRules(
  config: BusinessConfig,
  asset: { symbol: string; baseDecimals: number; quoteDecimals: number },
): MarketRules {
  return {
    ...asset,
    baseUnit: 10n ** BigInt(asset.baseDecimals),
    tick: BigInt(config.trade.tickSize),
    lot: BigInt(config.trade.lotSize),
    min: BigInt(config.trade.minAmount),
    max: BigInt(config.trade.maxAmount),
    feeBps: config.trade.feeBps,
  }
}

/** The fee on what a side receives: what it receives less that scaled by (1 − rate) rounded down, so the fee rounds up. */
export const feeOf = (received: bigint, feeBps: number) => received - (received * BigInt(10_000 - feeBps)) / 10_000n

/** USDT base units of `amount` at `price` (rounded down; exact when tick × lot is a multiple of the base unit). */
export const quoteOf = (price: bigint, amount: bigint, rules: MarketRules) => (price * amount) / rules.baseUnit

export const belowMinimum = (rules: MarketRules, min: bigint) =>
  refuse('trade.belowMinimum', { min: amountParam(min, rules.baseDecimals), unit: rules.symbol })
export const aboveMaximum = (rules: MarketRules) =>
  refuse('trade.aboveMaximum', { max: amountParam(rules.max, rules.baseDecimals), unit: rules.symbol })

/** Refuses an amount of {product} base units off the lot or outside the market's bounds. */
function checkAmount(rules: MarketRules, amount: bigint) {
  if (amount % rules.lot !== 0n)
    throw invalid('trade.offLot', { lot: amountParam(rules.lot, rules.baseDecimals), unit: rules.symbol })
  if (amount < rules.min) throw belowMinimum(rules, rules.min)
  if (amount > rules.max) throw aboveMaximum(rules)
}

/** Refuses a limit order's price off the tick, and its amount (checkAmount). */
export function checkLimitOrder(rules: MarketRules, price: bigint, amount: bigint) {
  if (price <= 0n) throw invalid('trade.enterPrice')
  if (amount <= 0n) throw invalid('trade.enterAmount')
  if (price % rules.tick !== 0n)
    throw invalid('trade.offTick', { tick: amountParam(rules.tick, rules.quoteDecimals), unit: QUOTE })
  checkAmount(rules, amount)
}

/** The order number shown to users: 'T', the UTC day of the order, its id zero-padded to 8 digits. */
export const orderSn = (id: bigint, at: Date) =>
  `T${at.toISOString().slice(0, 10).replaceAll('-', '')}${id.toString().padStart(8, '0')}`
