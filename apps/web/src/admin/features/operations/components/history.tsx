import { adminApi } from '@solpledge/contract/admin'
import type { OpsHistory } from '@solpledge/contract/client'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { ListState, Panel } from '@/admin/components/ui.tsx'
import { adminCall } from '@/admin/lib/api-client.ts'
import { adminKeys } from '@/admin/lib/query-keys.ts'
import { formatUnits } from '@/admin/lib/units.ts'

/** Daily figures move once a day at most: refreshed on this pace while the screen is open. */
const HISTORY_POLL_MS = 5 * 60_000

/** The last 30 days from the database (POST /api/admin/ops/history): one small chart per figure and asset. */
export function History() {
  const { t } = useTranslation('admin')
  const history = useQuery({
    queryKey: adminKeys.history(),
    queryFn: () => adminCall(adminApi.adminHistory, {}),
    refetchInterval: HISTORY_POLL_MS,
  })
  const data = history.data
  return (
    <Panel title={t('operations.history.title')} testId="admin-history">
      {!data ? (
        <ListState query={history} empty={false} />
      ) : (
        <div className="admin-charts">
          <Chart
            id="users"
            title={t('operations.history.users')}
            days={data.days}
            values={data.users.map(String)}
            show={(value) => formatUnits(value, 0)}
          />
          {data.assets.map((asset) => (
            <AssetCharts key={asset.coin} asset={asset} days={data.days} />
          ))}
        </div>
      )}
    </Panel>
  )
}

/** An asset's four charts: what came in, what went out, what the settlement paid, and the solvency ratio. */
function AssetCharts({ asset, days }: { asset: OpsHistory['assets'][number]; days: string[] }) {
  const { t } = useTranslation('admin')
  const amount = (value: string) => formatUnits(value, asset.decimals, asset.coin)
  return [
    <Chart
      key={`${asset.coin}-deposits`}
      id={`${asset.coin}-deposits`}
      title={`${t('operations.history.deposits')} · ${asset.coin}`}
      days={days}
      values={asset.deposits}
      decimals={asset.decimals}
      show={amount}
      bars
    />,
    <Chart
      key={`${asset.coin}-withdrawals`}
      id={`${asset.coin}-withdrawals`}
      title={`${t('operations.history.withdrawals')} · ${asset.coin}`}
      days={days}
      values={asset.withdrawals}
      decimals={asset.decimals}
      show={amount}
      bars
    />,
    <Chart
      key={`${asset.coin}-payouts`}
      id={`${asset.coin}-payouts`}
      title={`${t('operations.history.payouts')} · ${asset.coin}`}
      days={days}
      values={asset.payouts}
      decimals={asset.decimals}
      show={amount}
      bars
    />,
    <Chart
      key={`${asset.coin}-solvency`}
      id={`${asset.coin}-solvency`}
      title={`${t('operations.history.solvency')} · ${asset.coin}`}
      days={days}
      values={asset.solvency}
      decimals={6}
      show={(value) => formatUnits(value.replace('.', ''), 6)}
      scaled
    />,
  ]
}

interface ChartProps {
  id: string
  title: string
  days: string[]
  /** One value a day (base units, or decimal text when `scaled`); null: none that day. */
  values: (string | null)[]
  decimals?: number
  show: (value: string) => string
  /** Bars (sums of a day) rather than a line (a level at a day's end). */
  bars?: boolean
  /** Values are decimals with `decimals` places ('1.000000'), not base units. */
  scaled?: boolean
}

const WIDTH = 240
const HEIGHT = 56

/**
 * A small SVG chart of 30 values. Heights are drawn from the values' magnitude relative to the largest (a picture,
 * not a figure: the exact latest value and the largest are written beside it through the one formatter).
 */
function Chart({ id, title, days, values, decimals = 0, show, bars = false, scaled = false }: ChartProps) {
  const { t } = useTranslation('admin')
  // Compared as integers of the smallest unit: bigint division keeps the ratio exact enough for pixels.
  const units = values.map((v) => (v === null ? null : BigInt(scaled ? v.replace('.', '') : v)))
  const max = units.reduce<bigint>((m, v) => (v !== null && v > m ? v : m), 0n)
  const height = (v: bigint) => (max === 0n ? 0 : Number((v * 1000n) / max) / 1000) * (HEIGHT - 4)
  const step = WIDTH / Math.max(1, values.length)
  const latest = [...values].reverse().find((v) => v !== null) ?? null
  const maxText = scaled
    ? `${max / 10n ** BigInt(decimals)}.${String(max % 10n ** BigInt(decimals)).padStart(decimals, '0')}`
    : String(max)
  const points = units
    .map((v, i) => (v === null ? null : `${(i + 0.5) * step},${HEIGHT - 2 - height(v)}`))
    .filter((p) => p !== null)
  return (
    <figure className="admin-chart" data-testid="admin-chart" data-chart={id}>
      <figcaption>
        <span>{title}</span>
        <strong data-testid="admin-chart-latest">{latest === null ? '—' : show(latest)}</strong>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}: ${days[0]} – ${days.at(-1)}`}>
        {bars
          ? units.map((v, i) =>
              v === null || v === 0n ? null : (
                <rect
                  // biome-ignore lint/suspicious/noArrayIndexKey: one bar per day, in day order
                  key={i}
                  x={i * step + 1}
                  y={HEIGHT - 2 - height(v)}
                  width={Math.max(1, step - 2)}
                  height={Math.max(1, height(v))}
                >
                  <title>{`${days[i]}: ${show(values[i] as string)}`}</title>
                </rect>
              ),
            )
          : points.length > 0 && <polyline points={points.join(' ')} fill="none" />}
        <line x1="0" x2={WIDTH} y1={HEIGHT - 1} y2={HEIGHT - 1} className="admin-chart-axis" />
      </svg>
      <small className="muted-note">
        {t('operations.history.max')} {max === 0n && latest === null ? '—' : show(maxText)}
      </small>
    </figure>
  )
}
