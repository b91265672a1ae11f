import { api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { tradeKeys } from './keys.ts'
import { useLiveOrders } from './live-orders.ts'

/** One of the user's orders with its fills, newest first. */
export const getOrder = (id: string) => call(api.tradeOrderDetail, { id })

export const orderQueryOptions = (address: string | null, id: string) =>
  queryOptions({
    queryKey: tradeKeys.order(address ?? '', id),
    queryFn: address && id ? () => getOrder(id) : skipToken,
  })

/** The order, following the user's order events: its fills arrive as others trade against it. */
export function useOrder(id: string) {
  const address = useSignedInAddress()
  useLiveOrders(address)
  return useQuery(orderQueryOptions(address, id))
}
