import type { CandleInterval, MarketInfo } from '@solpledge/contract/client'
import { lazy, Suspense, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useCandles, useChartInfo } from '../api/get-candles.ts'
import { chartSeries, priceStep } from '../utils/chart.ts'

const ChartCanvas = lazy(() => import('./chart-canvas.tsx'))

/** The trend chart: candles of the chosen interval (the server's default first), its open candle growing with the market's trades (live-market.ts). */
export function TrendChart({ market }: { market: MarketInfo }) {
  const { t, i18n } = useTranslation()
  const info = useChartInfo()
  const [chosen, setChosen] = useState<CandleInterval | null>(null)
  const interval = chosen ?? info.data?.default_interval ?? null
  const candles = useCandles(interval)
  const { base_decimals, quote_decimals, tick_size } = market
  const list = candles.data?.list
  const series = useMemo(
    () => (list ? chartSeries(list, { base_decimals, quote_decimals }) : null),
    [list, base_decimals, quote_decimals],
  )
  const step = priceStep(tick_size, quote_decimals)
  const last = list?.at(-1)

  let note: string | null = null
  if (!series) note = info.isError || candles.isError ? t('trade.chart.unavailable') : t('common.loading')
  else if (series.bars.length === 0) note = t('trade.chart.empty')

  return (
    <section
      className="card trend-chart"
      data-testid="trend-chart"
      data-interval={interval ?? ''}
      data-candles={list?.length ?? 0}
      data-last-close={last?.close ?? ''}
      aria-labelledby="trend-chart-title"
    >
      <header className="section-head">
        <h2 id="trend-chart-title">{t('trade.chart.title')}</h2>
        <fieldset className="chart-intervals" aria-label={t('trade.chart.intervals')}>
          {info.data?.intervals.map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={value === interval}
              data-testid="chart-interval"
              data-value={value}
              onClick={() => setChosen(value)}
            >
              {t(`trade.chart.interval.${value}`)}
            </button>
          ))}
        </fieldset>
      </header>
      <div className="chart-area">
        {note ? (
          <p className="chart-note">{note}</p>
        ) : (
          series && (
            <Suspense fallback={<p className="chart-note">{t('common.loading')}</p>}>
              <ChartCanvas
                key={interval}
                series={series}
                precision={step.precision}
                minMove={step.minMove}
                intraday={interval !== '1d'}
                language={i18n.resolvedLanguage}
              />
            </Suspense>
          )
        )}
      </div>
    </section>
  )
}
