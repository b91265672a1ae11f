import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { HistoryChart } from '@/components/history-chart.tsx'
import { Page } from '@/components/page.tsx'
import { SignedOut } from '@/components/signed-out.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { amountsOf, levelsOf } from '@/lib/chart-points.ts'
import { displayDecimals, USDT_DECIMALS } from '@/lib/format.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { useFormat } from '@/lib/use-format.ts'
import { type History, useHistory } from '../api/get-history.ts'
import { usePledgeConfig } from '../api/get-pledge-config.ts'
import { usePriceHistory } from '../api/get-price-history.ts'
import { RateHistory } from './rate-history.tsx'

/** The windows a user can look back over, in days. */
const SPANS = ['30', '90', '365'] as const
type Span = (typeof SPANS)[number]

/**
 * /pledge/history: my output per settled day (one chart per coin credited), my personal power over time and my team's
 * performance by month, and the {product}'s prices, each chart with its table (components/history-chart.tsx), over the
 * last 30, 90 or 365 days; then each product's output rate over time (rate-history.tsx).
 */
export function HistoryScreen() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  return (
    <Page title={t('screens.pledgeHistory')}>
      <Link className="back-link" to="/pledge" data-testid="history-back">
        {t('history.back')}
      </Link>
      {address ? <HistoryCharts /> : <SignedOut text={t('pledge.signedOut')} testId="history-signed-out" />}
    </Page>
  )
}

function HistoryCharts() {
  const { t } = useTranslation()
  const format = useFormat()
  const [span, setSpan] = useState<Span>('90')
  const history = useHistory(Number(span))
  const product = usePledgeConfig().data
  const data = history.data
  const note = data ? null : history.isError ? t('history.unavailable') : t('common.loading')
  const prices = usePriceHistory(Number(span))
  const priceNote = prices.data ? null : prices.isError ? t('history.unavailable') : t('common.loading')
  /** A price holds from the day it was recorded until the next: a stepped line to the window's last day. */
  const priceLevels = (rows: readonly { day: string; price: string }[]) =>
    prices.data
      ? levelsOf(
          rows.map((row) => ({ day: row.day, value: row.price })),
          USDT_DECIMALS,
          prices.data.to,
          (units) => format.usdt(units, 'price'),
        )
      : []

  return (
    <>
      <Tabs<Span>
        label={t('history.window')}
        testId="history-window"
        value={span}
        onChange={setSpan}
        options={SPANS.map((value) => ({ value, label: t('history.days', { count: Number(value) }) }))}
      />
      {outputCoins(data, product).map(({ coin, decimals }) => (
        <HistoryChart
          key={coin}
          testId="history-output"
          title={t('history.output', { coin })}
          column={coin}
          kind="bars"
          precision={displayDecimals(coin, decimals, 'output')}
          note={note}
          points={amountsOf(data?.output.filter((row) => row.coin === coin) ?? [], decimals, (row) =>
            format.money(row.amount, { symbol: coin, decimals }, 'output'),
          )}
        />
      ))}
      <HistoryChart
        testId="history-power"
        title={t('history.power')}
        column={t('history.powerColumn')}
        kind="steps"
        precision={2}
        note={note}
        points={
          data
            ? levelsOf(
                data.power.map((row) => ({ day: row.day, value: row.power })),
                USDT_DECIMALS,
                data.to,
                format.power,
              )
            : []
        }
      />
      <HistoryChart
        testId="history-team"
        title={t('history.team')}
        column={t('history.teamColumn')}
        kind="bars"
        period="month"
        precision={2}
        note={note}
        points={amountsOf(
          data?.team.map((row) => ({ day: row.month, amount: row.performance })) ?? [],
          USDT_DECIMALS,
          (row) => format.usdt(row.amount),
        )}
      />
      <HistoryChart
        testId="history-valuation"
        title={t('history.valuation', { coin: prices.data?.symbol ?? product?.symbol ?? '' })}
        column={t('history.priceColumn')}
        kind="steps"
        precision={4}
        note={priceNote}
        points={priceLevels(prices.data?.valuation ?? [])}
      >
        <p className="muted">{t('history.valuationHelp')}</p>
      </HistoryChart>
      <HistoryChart
        testId="history-price"
        title={t('history.price', { coin: prices.data?.symbol ?? product?.symbol ?? '' })}
        column={t('history.priceColumn')}
        kind="steps"
        precision={4}
        note={priceNote}
        points={priceLevels(prices.data?.trade ?? [])}
      />
      <RateHistory />
    </>
  )
}

/** The coins with output in the window, the product first; the product alone when there is none yet. */
function outputCoins(data: History | undefined, product: { symbol: string; decimals: number } | undefined) {
  const coins = new Map<string, number>()
  for (const row of data?.output ?? []) coins.set(row.coin, row.decimals)
  if (coins.size === 0 && product) coins.set(product.symbol, product.decimals)
  return [...coins].map(([coin, decimals]) => ({ coin, decimals }))
}
