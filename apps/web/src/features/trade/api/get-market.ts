import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { tradeKeys } from './keys.ts'

/** Levels of each side of the book the screens show. */
export const BOOK_DEPTH = 8

/** The market (rules, last price, 24 h figures) with the best `depth` levels of each side of the book. Public. */
export const getMarket = (depth: number) => call(api.tradeHome, { depth })

export type Market = Awaited<ReturnType<typeof getMarket>>

export const marketQueryOptions = (depth = BOOK_DEPTH) =>
  queryOptions({ queryKey: tradeKeys.market(depth), queryFn: () => getMarket(depth) })

/** The market as last read; a screen that shows it moving calls useLiveMarket (live-market.ts) too. */
export const useMarket = () => useQuery(marketQueryOptions())
