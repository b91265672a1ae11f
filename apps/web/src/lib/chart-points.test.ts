import { describe, expect, it } from 'vitest'
import { amountsOf, everyDay, levelsOf, unitsToNumber } from './chart-points.ts'

describe('figures for the history charts', () => {
  it('turns base units into whole units without losing the fraction of large amounts', () => {
    expect(unitsToNumber('1500000', 6)).toBe(1.5)
    expect(unitsToNumber(123_456_789_012_345_678n, 9)).toBeCloseTo(123_456_789.012_346, 6)
    expect(unitsToNumber('0', 9)).toBe(0)
    expect(unitsToNumber('1', 9)).toBe(1e-9)
  })

  it('keeps amounts per day with the text the table shows', () => {
    expect(amountsOf([{ day: '2026-11-01', amount: '2500000' }], 6, (row) => `${row.amount}!`)).toEqual([
      { day: '2026-11-01', value: 2.5, text: '2500000!' },
    ])
  })

  it('extends a level to the last day, once', () => {
    const rows = [
      { day: '2026-11-01', value: '0' },
      { day: '2026-11-05', value: '750000000' },
    ]
    const text = (units: string) => `${units} u`
    expect(levelsOf(rows, 6, '2026-11-09', text)).toEqual([
      { day: '2026-11-01', value: 0, text: '0 u' },
      { day: '2026-11-05', value: 750, text: '750000000 u' },
      { day: '2026-11-09', value: 750, text: '750000000 u' },
    ])
    expect(levelsOf(rows, 6, '2026-11-05', text)).toHaveLength(2)
    expect(levelsOf([], 6, '2026-11-05', text)).toEqual([])
  })

  it('gives the chart one entry a day: a level carried over, amounts left empty between their days', () => {
    const points = [
      { day: '2026-02-27', value: 1 },
      { day: '2026-03-02', value: 3 },
    ]
    expect(everyDay(points, 'carry')).toEqual([
      { time: '2026-02-27', value: 1 },
      { time: '2026-02-28', value: 1 },
      { time: '2026-03-01', value: 1 },
      { time: '2026-03-02', value: 3 },
    ])
    expect(everyDay(points, 'empty')).toEqual([
      { time: '2026-02-27', value: 1 },
      { time: '2026-02-28' },
      { time: '2026-03-01' },
      { time: '2026-03-02', value: 3 },
    ])
    expect(everyDay([], 'carry')).toEqual([])
  })
})
