import { describe, expect, it } from 'vitest'
import { bpsToPercent, parseInteger, parsePercent, parseUnits } from './units.ts'

describe('console units', () => {
  it('reads decimal amounts as base units exactly, refusing more decimals than the asset has', () => {
    expect(parseUnits('100.5', 6)).toEqual({ ok: true, value: 100_500_000n })
    expect(parseUnits('0.000000001', 9)).toEqual({ ok: true, value: 1n })
    expect(parseUnits('1.0000001', 6)).toEqual({ ok: false, error: 'decimals' })
    expect(parseUnits('-1', 6)).toEqual({ ok: false, error: 'format' })
    expect(parseUnits(' ', 6)).toEqual({ ok: false, error: 'empty' })
  })

  it('shows basis points as percentages and reads them back', () => {
    expect(bpsToPercent(150)).toBe('1.5')
    expect(bpsToPercent(10_600)).toBe('106')
    expect(bpsToPercent(1)).toBe('0.01')
    expect(bpsToPercent(0)).toBe('0')
    for (const bps of [0, 1, 5, 150, 9_999, 10_000, 10_600, 10_000_000])
      expect(parsePercent(bpsToPercent(bps))).toEqual({ ok: true, value: bps })
  })

  it('refuses percentages finer than a basis point or above the maximum', () => {
    expect(parsePercent('0.005')).toEqual({ ok: false, error: 'decimals' })
    expect(parsePercent('100.01', 10_000)).toEqual({ ok: false, error: 'range' })
    expect(parsePercent('100', 10_000)).toEqual({ ok: true, value: 10_000 })
    expect(parsePercent('abc')).toEqual({ ok: false, error: 'format' })
  })

  it('reads whole numbers within bounds', () => {
    expect(parseInteger('23', 0, 23)).toEqual({ ok: true, value: 23 })
    expect(parseInteger('24', 0, 23)).toEqual({ ok: false, error: 'range' })
    expect(parseInteger('1.5', 0, 23)).toEqual({ ok: false, error: 'format' })
    expect(parseInteger('', 0, 23)).toEqual({ ok: false, error: 'empty' })
  })
})
