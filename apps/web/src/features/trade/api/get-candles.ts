import { api, type CandleInterval } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { tradeKeys } from './keys.ts'

/** How many candles the chart shows. */
export const CANDLE_LIMIT = 120

/** The chart's intervals and its default one. Public. */
export const getChartInfo = () => call(api.trendChartPageInfo, {})

export const chartInfoQueryOptions = () => queryOptions({ queryKey: tradeKeys.chartInfo, queryFn: getChartInfo })

export const useChartInfo = () => useQuery(chartInfoQueryOptions())

/** The latest candles of an interval, oldest first. Public. */
export const getCandles = (interval: CandleInterval) => call(api.trendChart, { interval, limit: CANDLE_LIMIT })

export const candlesQueryOptions = (interval: CandleInterval | null) =>
  queryOptions({
    queryKey: tradeKeys.candles(interval ?? '1m'),
    queryFn: () => getCandles(interval ?? '1m'),
    enabled: interval !== null,
  })

export const useCandles = (interval: CandleInterval | null) => useQuery(candlesQueryOptions(interval))
