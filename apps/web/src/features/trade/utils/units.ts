import type { MarketInfo } from '@solpledge/contract/client'
import { formatAmountOf, formatMoney } from '@/lib/format.ts'

/**
 * Formats the market's amounts for people in `language` (lib/format.ts): prices at price precision, {product} and
 * USDT as balances, fees as fees, or every decimal in receipts (`exact`).
 */
export function marketUnits(
  market: Pick<MarketInfo, 'symbol' | 'quote' | 'base_decimals' | 'quote_decimals'>,
  language: string | undefined,
  exact = false,
) {
  const base = { symbol: market.symbol, decimals: market.base_decimals }
  const quote = { symbol: market.quote, decimals: market.quote_decimals }
  const kind = exact ? 'exact' : 'balance'
  return {
    /** A price without its unit, e.g. '0.5'. */
    price: (units: bigint | string) => formatAmountOf(units, quote, language, exact ? 'exact' : 'price'),
    /** {product} base units without the symbol, e.g. '12.5'. */
    amount: (units: bigint | string) => formatAmountOf(units, base, language, kind),
    /** {product} base units with the symbol, e.g. '12.5 PLG'. */
    base: (units: bigint | string) => formatMoney(units, base, language, kind),
    /** USDT base units with the symbol, e.g. '6.25 USDT'. */
    quote: (units: bigint | string) => formatMoney(units, quote, language, kind),
    /** A price with its unit, e.g. '0.512345 USDT'. */
    quotePrice: (units: bigint | string) => formatMoney(units, quote, language, exact ? 'exact' : 'price'),
    /** A fee in {product}, e.g. '0.012 PLG' (half-up). */
    baseFee: (units: bigint | string) => formatMoney(units, base, language, exact ? 'exact' : 'fee'),
    /** A fee in USDT, e.g. '0.01 USDT' (half-up). */
    quoteFee: (units: bigint | string) => formatMoney(units, quote, language, exact ? 'exact' : 'fee'),
  }
}
