import type { MarketInfo, TradeOrder } from '@solpledge/contract/client'
import type { TFunction } from 'i18next'
import type { Fact } from '@/components/facts.tsx'
import { formatDateTime } from '@/lib/format.ts'
import { marketUnits } from '../utils/units.ts'

const STATUS_TONE = { pending: 'wait', completed: 'ok', cancelled: 'bad' } as const

/** An order's status as a badge. */
export const orderStatus = (t: TFunction, order: Pick<TradeOrder, 'status'>) => ({
  label: t(`trade.status.${order.status}`),
  tone: STATUS_TONE[order.status],
})

/** 'Buy' or 'Sell', and 'Swap · Buy' for a swap. */
export const orderType = (t: TFunction, order: Pick<TradeOrder, 'type' | 'kind'>) =>
  order.kind === 'swap' ? `${t('trade.type.swap')} · ${t(`trade.type.${order.type}`)}` : t(`trade.type.${order.type}`)

/**
 * Every label of an order (orderSn, type, status, price, amount, sold amount, remaining amount, total
 * earnings, time) and its average price, turnover and fee. Earnings and fee are in the asset received: USDT for a
 * sell, {product} for a buy. Each figure at the precision of its kind (lib/format.ts), in lists and on the order's
 * detail screen alike; its receipt has every decimal. See docs/product.md#records.
 */
export function orderFacts(
  t: TFunction,
  order: TradeOrder,
  market: Pick<MarketInfo, 'symbol' | 'quote' | 'base_decimals' | 'quote_decimals'>,
  language: string | undefined,
): Fact[] {
  const units = marketUnits(market, language)
  const received = order.type === 'sell' ? units.quote : units.base
  const receivedFee = order.type === 'sell' ? units.quoteFee : units.baseFee
  return [
    { id: 'orderSn', label: t('trade.order.orderSn'), value: order.order_sn, testId: 'order-sn' },
    { id: 'type', label: t('trade.order.type'), value: orderType(t, order), testId: 'order-type' },
    {
      id: 'status',
      label: t('trade.order.status'),
      value: t(`trade.status.${order.status}`),
      testId: 'order-status',
    },
    {
      id: 'price',
      label: t('trade.order.price'),
      value: order.price === null ? t('trade.order.market') : units.quotePrice(order.price),
      testId: 'order-price',
    },
    { id: 'amount', label: t('trade.order.amount'), value: units.base(order.amount), testId: 'order-amount' },
    {
      id: 'sold',
      label: t(order.type === 'sell' ? 'trade.order.sold' : 'trade.order.bought'),
      value: units.base(order.sold_amount),
      testId: 'order-sold',
    },
    {
      id: 'remaining',
      label: t('trade.order.remaining'),
      value: units.base(order.remaining_amount),
      testId: 'order-remaining',
    },
    {
      id: 'average',
      label: t('trade.order.average'),
      value: order.average_price === null ? '–' : units.quotePrice(order.average_price),
      testId: 'order-average',
    },
    { id: 'turnover', label: t('trade.order.turnover'), value: units.quote(order.quote_amount) },
    {
      id: 'earnings',
      label: t('trade.order.earnings'),
      value: received(order.total_earnings),
      testId: 'order-earnings',
    },
    { id: 'fee', label: t('trade.order.fee'), value: receivedFee(order.fee), testId: 'order-fee' },
    { id: 'time', label: t('trade.order.time'), value: formatDateTime(order.created_at, language) },
  ]
}
