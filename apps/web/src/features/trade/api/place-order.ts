import { api, type TradeSide } from '@solpledge/contract/client'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import i18next from 'i18next'
import { call } from '../../../lib/api-client.ts'
import { reportActionError } from '../../../lib/report-action-error.ts'
import { toast } from '../../../lib/toast.ts'
import { refreshAfterTrade } from './refresh.ts'

export interface PlaceOrder {
  side: TradeSide
  price: bigint
  amount: bigint
  /** The same key for a retry of the same order: the server then returns the first result and changes nothing. */
  clientOrderId: string
}

/** Places a limit order: matched at once as far as the book allows, the rest stays on the book. */
export const placeOrder = ({ side, price, amount, clientOrderId }: PlaceOrder) =>
  call(side === 'buy' ? api.tradeBuy : api.tradeSell, {
    price: price.toString(),
    amount: amount.toString(),
    client_order_id: clientOrderId,
  })

/** Places an order: 'Order placed' or the server's refusal, then a fresh book, orders and balances. */
export function usePlaceOrder(onDone: () => void) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: placeOrder,
    onSuccess: () => {
      toast.success(i18next.t('msg:trade.orderPlaced'))
      onDone()
    },
    onError: (error) => reportActionError(error),
    onSettled: () => refreshAfterTrade(queryClient),
  })
}
