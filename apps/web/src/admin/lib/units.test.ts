import { describe, expect, it } from 'vitest'
import { bpsToPercent, formatUnits, parseInteger, parsePercent } from './units.ts'

describe('console units', () => {
  it('shows base units as decimals of the asset, to the last unit, signed, with the symbol when given', () => {
    expect(formatUnits('100500000', 6, 'USDT')).toBe('100.5 USDT')
    expect(formatUnits(1n, 9)).toBe('0.000000001')
    expect(formatUnits('-12000000001', 9, 'PLG')).toBe('-12.000000001 PLG')
    expect(formatUnits('123456789012345678901234567890', 6)).toBe('123,456,789,012,345,678,901,234.56789')
    expect(formatUnits('1100500000', 6, 'USDT')).toBe('1,100.5 USDT')
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
