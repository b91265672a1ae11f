import type { MarketInfo, TradeSide } from '@solpledge/contract/client'
import { type AmountRefusal, checkTypedAmount, refusalAmount, refuseAmount } from '@/lib/amount-check.ts'

/** The market rules an order form needs. */
export type MarketRules = Pick<
  MarketInfo,
  'symbol' | 'quote' | 'base_decimals' | 'quote_decimals' | 'tick_size' | 'lot_size' | 'min_amount' | 'max_amount'
>

export type OrderCheck = { ok: true; price: bigint; amount: bigint; total: bigint } | AmountRefusal

/**
 * USDT base units of `amount` {product} base units at `price` (USDT base units per whole token), rounded up: what a
 * buy locks. Exact whenever tick × lot is a whole token, as the business configuration requires.
 */
export function orderTotal(price: bigint, amount: bigint, baseDecimals: number) {
  const one = 10n ** BigInt(baseDecimals)
  return (price * amount + one - 1n) / one
}

/**
 * Checks a typed order in the order the user fills the form: the price (typed, well formed, on the tick), then the
 * amount (typed, well formed, on the lot, within the minimum and maximum), then what it spends against the available
 * balance of that asset (USDT for a buy, {product} for a sell; not checked while unknown). Resolves base units.
 */
export function validateOrder(
  side: TradeSide,
  priceText: string,
  amountText: string,
  market: MarketRules,
  available: bigint | undefined,
): OrderCheck {
  const price = checkTypedAmount(priceText, market.quote_decimals, 'trade.enterPrice')
  if (!price.ok) return price
  const tick = BigInt(market.tick_size)
  if (price.value % tick !== 0n)
    return refuseAmount('trade.offTick', { tick: refusalAmount(tick, market.quote_decimals), unit: market.quote })

  const amount = checkTypedAmount(amountText, market.base_decimals, 'trade.enterAmount')
  if (!amount.ok) return amount
  const base = (units: bigint | string) => refusalAmount(units, market.base_decimals)
  const lot = BigInt(market.lot_size)
  if (amount.value % lot !== 0n) return refuseAmount('trade.offLot', { lot: base(lot), unit: market.symbol })
  if (amount.value < BigInt(market.min_amount))
    return refuseAmount('trade.belowMinimum', { min: base(market.min_amount), unit: market.symbol })
  if (amount.value > BigInt(market.max_amount))
    return refuseAmount('trade.aboveMaximum', { max: base(market.max_amount), unit: market.symbol })

  const total = orderTotal(price.value, amount.value, market.base_decimals)
  const spent = side === 'buy' ? total : amount.value
  if (available !== undefined && spent > available) return refuseAmount('common.insufficientBalance')
  return { ok: true, price: price.value, amount: amount.value, total }
}

/**
 * The largest amount (on the lot, at most the maximum) the available balance pays for: {product} itself for a sell,
 * USDT at `price` for a buy (null without a price).
 */
export function maxOrderAmount(
  side: TradeSide,
  price: bigint | null,
  available: bigint,
  market: Pick<MarketRules, 'base_decimals' | 'lot_size' | 'max_amount'>,
) {
  let amount: bigint
  if (side === 'sell') amount = available
  else if (price && price > 0n) amount = (available * 10n ** BigInt(market.base_decimals)) / price
  else return null
  const lot = BigInt(market.lot_size)
  const max = BigInt(market.max_amount)
  const onLot = (amount / lot) * lot
  return onLot > max ? max : onLot
}
