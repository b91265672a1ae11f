import type { TradeSide } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router'
import { BackLink } from '@/components/back-link.tsx'
import { Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { useSignedInAddress } from '@/lib/session.ts'
import { useMarket } from '../api/get-market.ts'
import { useLiveMarket } from '../api/live-market.ts'
import { MarketSummary } from './market-summary.tsx'
import { MyOrders } from './my-orders.tsx'
import { OrderBook } from './order-book.tsx'
import { OrderForm } from './order-form.tsx'
import { TrendChart } from './trend-chart.tsx'
import './trade.css'

/** /quick-trade/buy and /quick-trade/sell; any other type shows the buy side. */
export function QuickTradeScreen() {
  const { type } = useParams()
  if (type !== 'buy' && type !== 'sell') return <Navigate to="/quick-trade/buy" replace />
  return <QuickTrade side={type} />
}

/**
 * The trade home: the market with its trend chart, the buy/sell form, the order book and the user's orders, all
 * following the live channel while the page is shown.
 */
function QuickTrade({ side }: { side: TradeSide }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const address = useSignedInAddress()
  const book = useMarket()
  useLiveMarket()
  // Switching sides is a new route: the typed price comes along.
  const location = useLocation()
  const [price, setPrice] = useState(() => (location.state as { price?: string } | null)?.price ?? '')

  return (
    <Page title={t('screens.quickTrade')}>
      <BackLink to="/" />
      <Link className="trade-switch-link" to="/swap" data-testid="to-swap">
        {t('trade.toSwap')}
      </Link>
      {book.data ? (
        <>
          <MarketSummary market={book.data.market} />
          <TrendChart market={book.data.market} />
          <section className="card trade-card" aria-label={t('trade.side.label')}>
            <Tabs<TradeSide>
              label={t('trade.side.label')}
              testId="trade-side"
              value={side}
              onChange={(next) => navigate(`/quick-trade/${next}`, { replace: true, state: { price } })}
              options={[
                { value: 'buy', label: t('trade.side.buy') },
                { value: 'sell', label: t('trade.side.sell') },
              ]}
            />
            {address ? (
              <OrderForm side={side} market={book.data.market} price={price} onPriceChange={setPrice} />
            ) : (
              <SignedOut text={t('trade.signedOut')} testId="trade-signed-out" />
            )}
          </section>
          <OrderBook book={book.data} onPick={setPrice} />
          {address && <MyOrders market={book.data.market} />}
        </>
      ) : (
        <p className="muted-note" data-testid="market-status">
          {book.isError ? t('trade.market.unavailable') : t('common.loading')}
        </p>
      )}
    </Page>
  )
}
