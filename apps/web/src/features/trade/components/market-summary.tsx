import type { MarketInfo } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { formatBps } from '@/lib/format.ts'
import { marketUnits } from '../utils/units.ts'

/** The pair, its price (the last trade, or the reference price before the first) and its last 24 hours. */
export function MarketSummary({ market }: { market: MarketInfo }) {
  const { t, i18n } = useTranslation()
  const units = marketUnits(market, i18n.resolvedLanguage)
  const change = market.change_24h_bps
  const tone = change > 0 ? 'up' : change < 0 ? 'down' : 'flat'
  const orDash = (value: string | null) => (value === null ? '–' : units.price(value))
  return (
    <section
      className="card card-glow market-summary"
      data-testid="market-summary"
      aria-label={t('trade.market.title')}
    >
      <div className="market-head">
        <span className="market-pair">{market.pair}</span>
        <span className={`market-change market-${tone}`} data-testid="market-change">
          {change > 0 ? '+' : ''}
          {formatBps(change, i18n.resolvedLanguage)}
        </span>
      </div>
      <p className={`market-price market-${tone}`}>
        <span data-testid="market-price" data-source={market.price_source}>
          {units.price(market.price)}
        </span>{' '}
        <small>{market.quote}</small>
      </p>
      <p className="muted-note">
        {market.price_source === 'trade' ? t('trade.market.last') : t('trade.market.reference')}
      </p>
      <dl className="market-figures">
        <div>
          <dt>{t('trade.market.high')}</dt>
          <dd data-testid="market-high">{orDash(market.high_24h)}</dd>
        </div>
        <div>
          <dt>{t('trade.market.low')}</dt>
          <dd data-testid="market-low">{orDash(market.low_24h)}</dd>
        </div>
        <div>
          <dt>{t('trade.market.volume')}</dt>
          <dd data-testid="market-volume">{units.base(market.volume_24h)}</dd>
        </div>
      </dl>
    </section>
  )
}
