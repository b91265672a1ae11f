import { api, type TradeOrderStatus } from '@solpledge/contract/client'
import { infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { nextPage } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { ORDERS_PAGE_SIZE, tradeKeys } from './keys.ts'
import { useLiveOrders } from './live-orders.ts'

/** One page of the user's orders of a status, both sides, newest first. */
export const getOrders = (status: TradeOrderStatus, page: number) =>
  call(api.tradeMyOrders, { status, page, limit: ORDERS_PAGE_SIZE })

export const ordersQueryOptions = (address: string | null, status: TradeOrderStatus) =>
  infiniteQueryOptions({
    queryKey: tradeKeys.orders(address ?? '', status),
    queryFn: address ? ({ pageParam }) => getOrders(status, pageParam) : skipToken,
    initialPageParam: 1,
    getNextPageParam: nextPage,
  })

/** The user's orders of a status, following the user's order events. */
export function useOrders(status: TradeOrderStatus) {
  const address = useSignedInAddress()
  useLiveOrders(address)
  return useInfiniteQuery(ordersQueryOptions(address, status))
}
