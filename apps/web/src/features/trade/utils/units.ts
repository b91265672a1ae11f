import { formatAmount, type MarketInfo } from '@solpledge/contract/client'

/** Formats the market's amounts for people: prices and USDT in the quote's decimals, {product} in its own. */
export function marketUnits(market: Pick<MarketInfo, 'symbol' | 'quote' | 'base_decimals' | 'quote_decimals'>) {
  return {
    /** A price or USDT amount without its unit, e.g. '0.5'. */
    price: (units: bigint | string) => formatAmount(units, market.quote_decimals),
    /** {product} base units with the symbol, e.g. '12.5 PLG'. */
    base: (units: bigint | string) => `${formatAmount(units, market.base_decimals)} ${market.symbol}`,
    /** USDT base units with the symbol, e.g. '6.25 USDT'. */
    quote: (units: bigint | string) => `${formatAmount(units, market.quote_decimals)} ${market.quote}`,
  }
}
