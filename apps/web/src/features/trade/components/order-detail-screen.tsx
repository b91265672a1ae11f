import type { MarketInfo, TradeFill, TradeOrder } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { Facts } from '@/components/facts.tsx'
import { EmptyState, Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { ApiError } from '@/lib/api-client.ts'
import { formatDateTime } from '@/lib/format.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { useMarket } from '../api/get-market.ts'
import { useOrder } from '../api/get-order.ts'
import { marketUnits } from '../utils/units.ts'
import { CancelOrderReview } from './cancel-order-review.tsx'
import { orderFacts, orderStatus, orderType } from './order-facts.ts'
import './trade.css'

/** /quick-trade/detail/:id: every label of one of the user's orders, its fills and, while pending, its cancel. */
export function OrderDetailScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.quickTradeDetail')}>
      {address ? <OrderDetail /> : <SignedOut text={t('trade.signedOut')} testId="trade-signed-out" />}
    </Page>
  )
}

function OrderDetail() {
  const { t } = useTranslation(['ui', 'msg'])
  const { id = '' } = useParams()
  const valid = /^[1-9][0-9]*$/.test(id)
  const order = useOrder(valid ? id : '')
  const market = useMarket()

  if (!valid || order.error instanceof ApiError)
    return (
      <>
        <BackLink side="buy" />
        <EmptyState text={t('msg:trade.orderNotFound')} />
      </>
    )
  if (!order.data || !market.data)
    return (
      <>
        <BackLink side="buy" />
        <p className="muted-note">
          {order.isError || market.isError ? t('trade.detail.unavailable') : t('common.loading')}
        </p>
      </>
    )
  return (
    <>
      <BackLink side={order.data.order.type} />
      <OrderCard order={order.data.order} market={market.data.market} />
      <Fills fills={order.data.fills} order={order.data.order} market={market.data.market} />
    </>
  )
}

const BackLink = ({ side }: { side: TradeOrder['type'] }) => {
  const { t } = useTranslation()
  return (
    <Link className="back-link" to={`/quick-trade/${side}`} data-testid="order-back">
      {t('trade.detail.back')}
    </Link>
  )
}

function OrderCard({ order, market }: { order: TradeOrder; market: MarketInfo }) {
  const { t, i18n } = useTranslation()
  const [confirming, setConfirming] = useState(false)
  const badge = orderStatus(t, order)
  return (
    <section className="card trade-card" data-testid="order-detail" data-id={order.id} data-status={order.status}>
      <header className="section-head">
        <h2>{orderType(t, order)}</h2>
        <span className={`badge badge-${badge.tone}`} data-testid="order-detail-status">
          {badge.label}
        </span>
      </header>
      <Facts facts={orderFacts(t, order, market, i18n.resolvedLanguage)} />
      {order.status === 'pending' && (
        <button
          type="button"
          className="trade-outline-button"
          data-testid="order-cancel"
          onClick={() => setConfirming(true)}
        >
          {t('trade.orders.cancel')}
        </button>
      )}
      <CancelOrderReview order={confirming ? order : null} market={market} onClose={() => setConfirming(false)} />
    </section>
  )
}

/** The order's fills, newest first: time, price, amount, fee and whether it made or took the price. */
function Fills({ fills, order, market }: { fills: readonly TradeFill[]; order: TradeOrder; market: MarketInfo }) {
  const { t, i18n } = useTranslation()
  const units = marketUnits(market, i18n.resolvedLanguage)
  const receivedFee = order.type === 'sell' ? units.quoteFee : units.baseFee
  return (
    <section className="trade-section" aria-labelledby="order-fills-title">
      <h2 id="order-fills-title" className="section-title">
        {t('trade.detail.fills')}
      </h2>
      {fills.length === 0 ? (
        <EmptyState text={t('trade.detail.noFills')} />
      ) : (
        <ul className="order-list" data-testid="fill-list">
          {fills.map((fill) => (
            <li key={fill.id} className="card order-card" data-testid="fill-row" data-role={fill.role}>
              <div className="order-card-head">
                <time dateTime={fill.created_at}>{formatDateTime(fill.created_at, i18n.resolvedLanguage)}</time>
                <span className="badge badge-wait">{t(`trade.detail.role.${fill.role}`)}</span>
              </div>
              <Facts
                facts={[
                  {
                    id: 'price',
                    label: t('trade.order.price'),
                    value: units.quotePrice(fill.price),
                    testId: 'fill-price',
                  },
                  {
                    id: 'amount',
                    label: t('trade.order.amount'),
                    value: units.base(fill.amount),
                    testId: 'fill-amount',
                  },
                  { id: 'turnover', label: t('trade.order.turnover'), value: units.quote(fill.quote_amount) },
                  { id: 'fee', label: t('trade.order.fee'), value: receivedFee(fill.fee) },
                ]}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
