import { api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { ORDERS_POLL_MS, tradeKeys } from './keys.ts'

/** One of the user's orders with its fills, newest first. */
export const getOrder = (id: string) => call(api.tradeOrderDetail, { id })

/** Refreshed while the order is pending: its fills arrive as others trade against it. */
export const orderQueryOptions = (address: string | null, id: string) =>
  queryOptions({
    queryKey: tradeKeys.order(address ?? '', id),
    queryFn: address && id ? () => getOrder(id) : skipToken,
    refetchInterval: (query) => (query.state.data?.order.status === 'pending' ? ORDERS_POLL_MS : false),
  })

export function useOrder(id: string) {
  const address = useSignedInAddress()
  return useQuery(orderQueryOptions(address, id))
}
