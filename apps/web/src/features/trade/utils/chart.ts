import { type Candle, formatAmount, type MarketInfo } from '@solpledge/contract/client'

/**
 * Candles as the chart draws them: prices in USDT and volumes in {product} as numbers. Display only; money stays in
 * base units everywhere else.
 */
export function chartSeries(candles: readonly Candle[], market: Pick<MarketInfo, 'base_decimals' | 'quote_decimals'>) {
  const price = (units: string) => Number(formatAmount(units, market.quote_decimals))
  return {
    bars: candles.map((candle) => ({
      time: candle.time,
      open: price(candle.open),
      high: price(candle.high),
      low: price(candle.low),
      close: price(candle.close),
    })),
    volumes: candles.map((candle) => ({
      time: candle.time,
      value: Number(formatAmount(candle.volume, market.base_decimals)),
      rising: BigInt(candle.close) >= BigInt(candle.open),
    })),
  }
}

/** The chart's price format from the tick: 100 base units of a 6-decimal USDT → 4 decimals, steps of 0.0001. */
export function priceStep(tickSize: string, quoteDecimals: number) {
  const trailingZeros = tickSize.length - tickSize.replace(/0+$/, '').length
  const precision = Math.max(0, quoteDecimals - trailingZeros)
  return { precision, minMove: Number(formatAmount(tickSize, quoteDecimals)) }
}
