import type { MarketInfo, TradeOrder, TradeOrderStatus } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Facts } from '@/components/facts.tsx'
import { LoadMore } from '@/components/load-more.tsx'
import { EmptyState } from '@/components/page.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { flattenPages } from '@/lib/paging.ts'
import { useOrders } from '../api/get-orders.ts'
import { CancelOrderReview } from './cancel-order-review.tsx'
import { orderFacts, orderStatus, orderType } from './order-facts.ts'

const STATUSES: readonly TradeOrderStatus[] = ['pending', 'completed', 'cancelled']

/** What a card of the list shows of an order; its detail shows everything. */
const CARD_FACTS: Record<TradeOrderStatus, readonly string[]> = {
  pending: ['price', 'amount', 'sold', 'remaining', 'time'],
  completed: ['price', 'amount', 'average', 'earnings', 'time'],
  cancelled: ['price', 'amount', 'sold', 'earnings', 'time'],
}

/** The user's orders by status (both sides, newest first, refreshed every 3 s); pending ones can be cancelled. */
export function MyOrders({ market }: { market: MarketInfo }) {
  const { t } = useTranslation()
  const [status, setStatus] = useState<TradeOrderStatus>('pending')
  return (
    <section className="trade-section" aria-labelledby="my-orders-title">
      <h2 id="my-orders-title" className="section-title">
        {t('trade.orders.title')}
      </h2>
      <Tabs<TradeOrderStatus>
        label={t('trade.orders.title')}
        testId="orders-tab"
        value={status}
        onChange={setStatus}
        options={STATUSES.map((value) => ({ value, label: t(`trade.status.${value}`) }))}
      />
      <OrderList key={status} status={status} market={market} />
    </section>
  )
}

function OrderList({ status, market }: { status: TradeOrderStatus; market: MarketInfo }) {
  const { t, i18n } = useTranslation()
  const { data, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useOrders(status)
  const [cancelling, setCancelling] = useState<TradeOrder | null>(null)
  const orders = data ? flattenPages(data.pages) : []

  if (!data) return <p className="muted-note">{isError ? t('trade.orders.unavailable') : t('common.loading')}</p>
  if (orders.length === 0) return <EmptyState text={t(`trade.orders.empty.${status}`)} />
  return (
    <>
      <ul className="order-list" data-testid="order-list">
        {orders.map((order) => {
          const badge = orderStatus(t, order)
          const facts = orderFacts(t, order, market, i18n.resolvedLanguage).filter((fact) =>
            CARD_FACTS[status].includes(fact.id),
          )
          return (
            <li
              key={order.id}
              className="card order-card"
              data-testid="order-row"
              data-id={order.id}
              data-sn={order.order_sn}
              data-status={order.status}
            >
              <Link className="order-card-head" to={`/quick-trade/detail/${order.id}`} data-testid="order-link">
                <span className={`order-side order-side-${order.type}`}>{orderType(t, order)}</span>
                <span className="order-card-sn">{order.order_sn}</span>
                <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
              </Link>
              <Facts facts={facts} />
              {order.status === 'pending' && (
                <button
                  type="button"
                  className="trade-outline-button order-cancel"
                  data-testid="order-cancel"
                  onClick={() => setCancelling(order)}
                >
                  {t('trade.orders.cancel')}
                </button>
              )}
            </li>
          )
        })}
      </ul>
      {hasNextPage && <LoadMore testId="orders-more" loading={isFetchingNextPage} onLoad={() => fetchNextPage()} />}
      <CancelOrderReview order={cancelling} market={market} onClose={() => setCancelling(null)} />
    </>
  )
}
