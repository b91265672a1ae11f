import { api } from '@solpledge/contract/client'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { pledgeKeys } from './keys.ts'

/** The {product}'s last trade price and valuation price by day over the last `days` days (the history's price chart). */
export const getPriceHistory = (days: number) => call(api.priceHistory, { days })

export type PriceHistory = Awaited<ReturnType<typeof getPriceHistory>>

export const priceHistoryQueryOptions = (days: number) =>
  queryOptions({
    queryKey: pledgeKeys.prices(days),
    queryFn: () => getPriceHistory(days),
    // Another window keeps the chart of the one before until it is here.
    placeholderData: keepPreviousData,
  })

export const usePriceHistory = (days: number) => useQuery(priceHistoryQueryOptions(days))
