import type { MarketInfo, TradeOrder } from '@solpledge/contract/client'
import i18next from 'i18next'
import type { Receipt, ReceiptTone } from '@/lib/receipt.ts'
import { marketUnits } from './units.ts'

const orderTone: Record<TradeOrder['status'], ReceiptTone> = { completed: 'ok', pending: 'wait', cancelled: 'bad' }

/**
 * The receipt of an order placed or a swap (an order filled at once): what was given, what was received net of the
 * fee, the fee, the average price of the fills, and the order's state (still on the book, filled or cancelled).
 * Amounts to the base unit, prices at price precision, as the order's detail screen shows them.
 */
export function orderReceipt(market: MarketInfo, order: TradeOrder, title: string): Receipt {
  const t = i18next.t
  const units = marketUnits(market, i18next.resolvedLanguage, true)
  const price = marketUnits(market, i18next.resolvedLanguage).price
  const buy = order.type === 'buy'
  // What was given for the fills: USDT for a buy, the token for a sell; what came back is the other, net of the fee.
  const given = buy ? units.quote(order.quote_amount) : units.base(order.sold_amount)
  const received = buy ? units.base(order.total_earnings) : units.quote(order.total_earnings)
  const fee = buy ? units.base(order.fee) : units.quote(order.fee)
  return {
    title,
    rows: [
      { id: 'paid', label: t('receipt.paid'), value: given },
      { id: 'received', label: t('receipt.received'), value: received },
      { id: 'fee', label: t('trade.order.fee'), value: fee },
      {
        id: 'price',
        label: t('trade.order.average'),
        value: order.average_price === null ? '–' : `${price(order.average_price)} ${market.quote}`,
      },
      ...(order.kind === 'limit' && order.status === 'pending'
        ? [{ id: 'remaining', label: t('trade.order.remaining'), value: units.base(order.remaining_amount) }]
        : []),
    ],
    state: { value: order.status, text: t(`trade.status.${order.status}`), tone: orderTone[order.status] },
  }
}
