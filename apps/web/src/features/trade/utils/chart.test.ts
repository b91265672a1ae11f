import { describe, expect, it } from 'vitest'
import { chartSeries, priceStep } from './chart.ts'

const candle = (time: number, open: string, high: string, low: string, close: string, volume: string) => ({
  time,
  open,
  high,
  low,
  close,
  volume,
  quote_volume: '0',
})

describe('chartSeries', () => {
  it('turns base units into USDT prices and PLG volumes, marking rising and falling candles', () => {
    const series = chartSeries(
      [
        candle(60, '500000', '520000', '490000', '510000', '30000000000'),
        candle(120, '510000', '510000', '480000', '480100', '5000000'),
      ],
      { base_decimals: 9, quote_decimals: 6 },
    )
    expect(series.bars).toEqual([
      { time: 60, open: 0.5, high: 0.52, low: 0.49, close: 0.51 },
      { time: 120, open: 0.51, high: 0.51, low: 0.48, close: 0.4801 },
    ])
    expect(series.volumes).toEqual([
      { time: 60, value: 30, rising: true },
      { time: 120, value: 0.005, rising: false },
    ])
  })
})

describe('priceStep', () => {
  it('shows as many decimals as the tick has', () => {
    expect(priceStep('100', 6)).toEqual({ precision: 4, minMove: 0.0001 })
    expect(priceStep('1', 6)).toEqual({ precision: 6, minMove: 0.000001 })
    expect(priceStep('250', 6)).toEqual({ precision: 5, minMove: 0.00025 })
    expect(priceStep('1000000', 6)).toEqual({ precision: 0, minMove: 1 })
    expect(priceStep('10000000', 6)).toEqual({ precision: 0, minMove: 10 })
  })
})
