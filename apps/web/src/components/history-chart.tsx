import { lazy, type ReactNode, Suspense, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { formatDay } from '@/lib/format.ts'
import './history-chart.css'

const HistoryChartCanvas = lazy(() => import('./history-chart-canvas.tsx'))

/** One day of a chart: the value drawn (for the eye) and the same figure as the formatter writes it (for the table). */
export interface ChartPoint {
  day: string
  value: number
  text: string
}

interface HistoryChartProps {
  title: string
  /** The table's value column. */
  column: string
  points: readonly ChartPoint[]
  kind: 'bars' | 'steps'
  /** What a point stands for: a day (the default) or a month (its first day; shown as 'YYYY-MM', as the ranking does). */
  period?: 'day' | 'month'
  precision: number
  testId: string
  /** What shows instead of the chart when there is nothing to draw (loading, failed, no data). */
  note?: string | null
  children?: ReactNode
}

/**
 * A chart of figures by day with its table: the chart (lightweight-charts, loaded when first drawn) draws on canvases,
 * which screen readers pass over; they read the table of the same figures — one a day, newest first — behind 'Show as
 * a table'. (The area is not aria-hidden: the library's attribution link in it takes the focus.)
 */
export function HistoryChart({
  title,
  column,
  points,
  kind,
  period = 'day',
  precision,
  testId,
  note,
  children,
}: HistoryChartProps) {
  const { t, i18n } = useTranslation()
  const titleId = useId()
  const shown = note ?? (points.length === 0 ? t('history.empty') : null)
  return (
    <section className="card history-chart" data-testid={testId} data-points={points.length} aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="history-chart-area">
        {shown ? (
          <p className="chart-note">{shown}</p>
        ) : (
          <Suspense fallback={<p className="chart-note">{t('common.loading')}</p>}>
            <HistoryChartCanvas points={points} kind={kind} precision={precision} language={i18n.resolvedLanguage} />
          </Suspense>
        )}
      </div>
      {points.length > 0 && (
        <details className="history-table">
          <summary data-testid={`${testId}-table-toggle`}>{t('history.showTable')}</summary>
          <table data-testid={`${testId}-table`}>
            <thead>
              <tr>
                <th scope="col">{t(period === 'day' ? 'history.day' : 'history.month')}</th>
                <th scope="col">{column}</th>
              </tr>
            </thead>
            <tbody>
              {[...points].reverse().map((point) => (
                <tr key={point.day} data-day={point.day}>
                  <td>{period === 'day' ? formatDay(point.day, i18n.resolvedLanguage) : point.day.slice(0, 7)}</td>
                  <td className="num">{point.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  )
}
