import { api, type MarketInfo, type TradeSide } from '@solpledge/contract/client'
import i18next from 'i18next'
import { call } from '@/lib/api-client.ts'
import { showReceipt } from '@/lib/receipt.ts'
import { reportActionError } from '@/lib/report-action-error.ts'
import { toast } from '@/lib/toast.ts'
import { useMoneyAction } from '@/lib/use-money-action.ts'
import { orderReceipt } from '../utils/receipt.ts'

export interface PlaceOrder {
  side: TradeSide
  price: bigint
  amount: bigint
}

/**
 * Places a limit order: matched at once as far as the book allows, the rest stays on the book. The action's key is
 * its client_order_id too: a retry of the same order returns the first result and changes nothing.
 */
export const placeOrder = ({ side, price, amount }: PlaceOrder, idempotencyKey: string) =>
  call(
    side === 'buy' ? api.tradeBuy : api.tradeSell,
    { price: price.toString(), amount: amount.toString(), client_order_id: idempotencyKey },
    { idempotencyKey },
  )

/** Places an order: 'Order placed' and its receipt, or the server's refusal; then a fresh book, orders and balances. */
export function usePlaceOrder(market: MarketInfo, onDone: () => void) {
  return useMoneyAction({
    mutationFn: placeOrder,
    onSuccess: (order) => {
      toast.success(i18next.t('msg:trade.orderPlaced'))
      onDone()
      const title = order.type === 'buy' ? 'receipt.title.buy' : 'receipt.title.sell'
      showReceipt(orderReceipt(market, order, i18next.t(title, { symbol: market.symbol })))
    },
    onError: (error) => reportActionError(error),
    invalidates: 'trade',
  })
}
