import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { MARKET_POLL_MS, tradeKeys } from './keys.ts'

/** Levels of each side of the book the screens show. */
export const BOOK_DEPTH = 8

/** The market (rules, last price, 24 h figures) with the best `depth` levels of each side of the book. Public. */
export const getMarket = (depth: number) => call(api.tradeHome, { depth })

export type Market = Awaited<ReturnType<typeof getMarket>>

export const marketQueryOptions = (depth = BOOK_DEPTH) =>
  queryOptions({ queryKey: tradeKeys.market(depth), queryFn: () => getMarket(depth) })

/** `live`: refresh every 2 s (the book, the last price); without, the market rules and figures as last loaded. */
export const useMarket = ({ live = true }: { live?: boolean } = {}) =>
  useQuery({ ...marketQueryOptions(), refetchInterval: live ? MARKET_POLL_MS : false })
