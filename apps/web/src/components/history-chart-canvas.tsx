import { createChart, HistogramSeries, LineSeries, LineType } from 'lightweight-charts'
import { useEffect, useRef } from 'react'
import { everyDay } from '@/lib/chart-points.ts'
import { chartTheme } from '@/lib/chart-theme.ts'
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
    if (!container.current) return
    const api = createChart(container.current, {
      ...chartTheme(language),
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

  return <div ref={container} className="chart-canvas" />
}
