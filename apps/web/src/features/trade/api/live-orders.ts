import type { TradeOrder } from '@solpledge/contract/client'
import { useQueryClient } from '@tanstack/react-query'
import { refetch, refetchSoon, useLiveTopic } from '@/lib/live/use-live.ts'
import { domainKeys } from '@/lib/query-keys.ts'
import type { getOrder } from './get-order.ts'
import { tradeKeys } from './keys.ts'

type OrderDetail = Awaited<ReturnType<typeof getOrder>>

/**
 * The user's orders by push: an order event replaces the order in its detail (its fills are read again when it
 * filled), and the lists of the user's orders are read again (an order moves between the status tabs).
 */
export function useLiveOrders(address: string | null) {
  const queryClient = useQueryClient()
  const lists = [...domainKeys.trade, 'orders', address ?? ''] as const
  const details = [...domainKeys.trade, 'order', address ?? ''] as const
  useLiveTopic(
    'user',
    {
      onEvent: (event) => {
        if (event.kind !== 'order' || !address) return
        const order: TradeOrder = event.order
        const key = tradeKeys.order(address, order.id)
        const before = queryClient.getQueryData<OrderDetail>(key)
        if (before) {
          queryClient.setQueryData<OrderDetail>(key, { ...before, order })
          if (before.order.sold_amount !== order.sold_amount) refetchSoon(queryClient, key)
        }
        refetchSoon(queryClient, lists)
      },
      onSnapshot: () => Promise.all([refetch(queryClient, lists), refetch(queryClient, details)]),
    },
    address !== null,
  )
}
