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

/**
 * The receipt of a cancel: what returned to the available balance — the unfilled rest of a sell, or the USDT a buy
 * held for it at its price — and what had been filled before, to the base unit.
 */
export function cancelReceipt(market: MarketInfo, order: TradeOrder): Receipt {
  const t = i18next.t
  const units = marketUnits(market, i18next.resolvedLanguage, true)
  const buy = order.type === 'buy'
  const rest = BigInt(order.remaining_amount)
  // A buy holds price × amount (exact: tick × lot is a multiple of one base unit, docs/trade.md) for its unfilled rest.
  const returned = buy
    ? units.quote((BigInt(order.price ?? 0) * rest) / 10n ** BigInt(market.base_decimals))
    : units.base(rest)
  return {
    title: t('receipt.title.cancel', { orderSn: order.order_sn }),
    rows: [
      { id: 'returned', label: t('receipt.returned'), value: returned },
      {
        id: 'filled',
        label: t(buy ? 'trade.order.bought' : 'trade.order.sold'),
        value: units.base(order.sold_amount),
      },
    ],
    state: { value: order.status, text: t(`trade.status.${order.status}`), tone: 'ok' },
  }
}
