import {
  CandlestickSeries,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts'
import { useEffect, useRef } from 'react'
import { chartTheme } from '@/lib/chart-theme.ts'
import type { chartSeries } from '../utils/chart.ts'

const UP = '#10b981'
const DOWN = '#f43f5e'

type Series = ReturnType<typeof chartSeries>

interface Chart {
  api: IChartApi
  bars: ISeriesApi<'Candlestick'>
  volumes: ISeriesApi<'Histogram'>
}

interface ChartCanvasProps {
  series: Series
  /** Decimals and smallest step of the price axis (from the tick). */
  precision: number
  minMove: number
  /** Show the time of day on the axis (intervals under a day). */
  intraday: boolean
  language: string | undefined
}

function draw({ bars, volumes }: Chart, series: Series) {
  bars.setData(series.bars.map((bar) => ({ ...bar, time: bar.time as UTCTimestamp })))
  volumes.setData(
    series.volumes.map(({ time, value, rising }) => ({
      time: time as UTCTimestamp,
      value,
      color: rising ? 'rgba(16, 185, 129, 0.45)' : 'rgba(244, 63, 94, 0.45)',
    })),
  )
}

/**
 * The candlestick chart with the volume under it, drawn by lightweight-charts. Its own module, loaded lazily, so the
 * library stays out of the other screens' chunks.
 */
export default function ChartCanvas({ series, precision, minMove, intraday, language }: ChartCanvasProps) {
  const container = useRef<HTMLDivElement>(null)
  const chart = useRef<Chart>(null)
  const latest = useRef(series)
  latest.current = series

  useEffect(() => {
    if (!container.current) return
    const api = createChart(container.current, {
      ...chartTheme(language),
      rightPriceScale: { borderVisible: false, scaleMargins: { top: 0.1, bottom: 0.25 } },
      timeScale: { borderVisible: false, timeVisible: intraday, secondsVisible: false, barSpacing: 8, rightOffset: 2 },
    })
    const bars = api.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      wickUpColor: UP,
      wickDownColor: DOWN,
      borderVisible: false,
      priceFormat: { type: 'price', precision, minMove },
    })
    const volumes = api.addSeries(HistogramSeries, {
      priceScaleId: '',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    })
    volumes.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } })
    chart.current = { api, bars, volumes }
    draw(chart.current, latest.current)
    return () => {
      chart.current = null
      api.remove()
    }
  }, [precision, minMove, intraday, language])

  // New candles as they are polled; the user's scroll and zoom stay.
  useEffect(() => {
    if (chart.current) draw(chart.current, series)
  }, [series])

  return <div ref={container} className="chart-canvas" />
}
