import { createChart, HistogramSeries, LineSeries, LineType } from 'lightweight-charts'
import { useEffect, useRef } from 'react'
import { everyDay } from '@/lib/chart-points.ts'
import { chartTheme } from '@/lib/chart-theme.ts'
import { formatUnits } from '@/lib/format.ts'
import type { ChartPoint } from './history-chart.tsx'

interface HistoryChartCanvasProps {
  points: readonly ChartPoint[]
  /** Bars for amounts per day, a stepped line for a level that holds until it changes. */
  kind: 'bars' | 'steps'
  /** Decimals shown on the axis. */
  precision: number
  language: string | undefined
}

/**
 * A day-by-day chart drawn by lightweight-charts: its own module, loaded lazily (history-chart.tsx), so the library
 * stays out of the entry chunk and of every screen without a chart. The figures it draws are for the eye only: the
 * table beside it shows them through the app's formatter.
 */
export default function HistoryChartCanvas({ points, kind, precision, language }: HistoryChartCanvasProps) {
  const container = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const element = container.current
    if (!element) return
    // The axis and crosshair labels are written by the app's formatter in the interface language (grouping and
    // decimal mark), as the tables are. The canvas holds no text, so the latest labels are also kept on the element
    // (data-axis), where the numbers journey reads them (e2e/numbers.spec.ts).
    const labels = new Set<string>()
    const priceFormatter = (value: number) => {
      const text = Number.isFinite(value)
        ? formatUnits(BigInt(Math.round(value * 10 ** precision)), precision, language, { round: 'half-up' })
        : ''
      labels.delete(text)
      labels.add(text)
      if (labels.size > 12) labels.delete(labels.values().next().value as string)
      element.dataset.axis = [...labels].join('\n')
      return text
    }
    const theme = chartTheme(language)
    const api = createChart(element, {
      ...theme,
      localization: { ...theme.localization, priceFormatter },
      rightPriceScale: { borderVisible: false, scaleMargins: { top: 0.1, bottom: 0.05 } },
      timeScale: { borderVisible: false, rightOffset: 1 },
    })
    const priceFormat = { type: 'price' as const, precision, minMove: 10 ** -precision }
    const series =
      kind === 'bars'
        ? api.addSeries(HistogramSeries, { color: '#8b5cf6', priceFormat, priceLineVisible: false })
        : api.addSeries(LineSeries, { color: '#38bdf8', lineWidth: 2, lineType: LineType.WithSteps, priceFormat })
    series.setData(everyDay(points, kind === 'steps' ? 'carry' : 'empty'))
    api.timeScale().fitContent()
    return () => api.remove()
  }, [points, kind, precision, language])

  return <div ref={container} className="chart-canvas" data-testid="history-chart-canvas" />
}
