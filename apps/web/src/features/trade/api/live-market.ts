import { CANDLE_SECONDS, type LiveEvent, type LiveTrade, type MarketInfo } from '@solpledge/contract/client'
import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { refetch, refetchSoon, useLiveTopic } from '@/lib/live/use-live.ts'
import { domainKeys } from '@/lib/query-keys.ts'
import type { getCandles, getChartInfo } from './get-candles.ts'
import type { Market } from './get-market.ts'
import { tradeKeys } from './keys.ts'

type Candles = Awaited<ReturnType<typeof getCandles>>
type ChartInfo = Awaited<ReturnType<typeof getChartInfo>>

const marketRoot = [...domainKeys.trade, 'market'] as const
const candlesRoot = [...domainKeys.trade, 'candles'] as const
const quoteRoot = [...domainKeys.trade, 'quote'] as const

/** A market query's data after a change of the book: its own depth of the levels, the last trade's price. */
export function withBook(market: Market, event: Extract<LiveEvent<'market'>, { kind: 'book' }>, depth: number): Market {
  const last = event.trades.at(-1)
  return {
    ...market,
    best_bid: event.best_bid,
    best_ask: event.best_ask,
    bids: event.bids.slice(0, depth),
    asks: event.asks.slice(0, depth),
    market: last
      ? { ...market.market, last_price: last.price, price: last.price, price_source: 'trade' }
      : market.market,
  }
}

/** Candles after trades: the trades' interval candle grows (or starts), exactly as the server sums the fills. */
export function withTrades(candles: Candles, trades: readonly LiveTrade[]): Candles {
  const seconds = CANDLE_SECONDS[candles.interval]
  const list = [...candles.list]
  for (const trade of trades) {
    const time = Math.floor(trade.time / 1000 / seconds) * seconds
    const last = list.at(-1)
    if (last && last.time > time) continue // older than what the chart has: its snapshot counted it
    const big = (value: string) => BigInt(value)
    if (last?.time === time)
      list[list.length - 1] = {
        ...last,
        high: big(trade.price) > big(last.high) ? trade.price : last.high,
        low: big(trade.price) < big(last.low) ? trade.price : last.low,
        close: trade.price,
        volume: (big(last.volume) + big(trade.amount)).toString(),
        quote_volume: (big(last.quote_volume) + big(trade.quote)).toString(),
      }
    else
      list.push({
        time,
        open: trade.price,
        high: trade.price,
        low: trade.price,
        close: trade.price,
        volume: trade.amount,
        quote_volume: trade.quote,
      })
  }
  return { ...candles, list }
}

/** Applies one event of the market topic to every trade query it concerns. */
export function applyMarketEvent(queryClient: QueryClient, event: LiveEvent<'market'>) {
  if (event.kind === 'figures') {
    const market: MarketInfo = event.market
    queryClient.setQueriesData<Market>({ queryKey: marketRoot }, (old) => old && { ...old, market })
    queryClient.setQueryData<ChartInfo>(tradeKeys.chartInfo, (old) => old && { ...old, market })
    return
  }
  for (const [key, old] of queryClient.getQueriesData<Market>({ queryKey: marketRoot }))
    if (old) queryClient.setQueryData(key, withBook(old, event, Number(key[2])))
  if (event.trades.length > 0)
    queryClient.setQueriesData<Candles>({ queryKey: candlesRoot }, (old) => old && withTrades(old, event.trades))
  // A swap's quote is the book's: read again (once for a burst), if a swap screen shows one.
  refetchSoon(queryClient, quoteRoot)
}

/**
 * The market by push (docs/architecture.md "Live updates"): the book, the last price, the 24 h figures, the chart's
 * open candle and the swap quote follow the market topic while the screen is shown.
 */
export function useLiveMarket(enabled = true) {
  const queryClient = useQueryClient()
  useLiveTopic(
    'market',
    {
      onEvent: (event) => applyMarketEvent(queryClient, event),
      onSnapshot: () =>
        Promise.all([marketRoot, candlesRoot, tradeKeys.chartInfo, quoteRoot].map((key) => refetch(queryClient, key))),
    },
    enabled,
  )
}
