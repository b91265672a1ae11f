import { describe, expect, it } from 'vitest'
import { bpsToMultiple, bpsToPercent, formatDateTime, formatDay, formatShortDay, toHex } from './format.ts'

it('encodes bytes as zero-padded lower-case hex', () => {
  expect(toHex(new Uint8Array([0, 1, 15, 16, 171, 255]))).toBe('00010f10abff')
  expect(toHex(new Uint8Array())).toBe('')
})

describe('formatDateTime', () => {
  it('formats in the given language', () => {
    const iso = '2024-07-17T09:30:00.000Z'
    const expected = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
    expect(formatDateTime(iso, 'en')).toBe(expected)
    expect(formatDateTime(iso, 'en')).toContain('2024')
  })

  it('shows unparseable input as it is', () => {
    expect(formatDateTime('not a date', 'en')).toBe('not a date')
  })
})

describe('formatDay', () => {
  it('formats a UTC day in the given language, whatever the local time zone', () => {
    const expected = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 6, 17)),
    )
    expect(formatDay('2024-07-17', 'en')).toBe(expected)
    expect(formatDay('2024-07-17', 'en')).toContain('17')
  })

  it('shows anything else as it is', () => {
    expect(formatDay('soon', 'en')).toBe('soon')
    expect(formatDay('2024-13-45', 'en')).toBe('2024-13-45')
  })
})

describe('formatShortDay', () => {
  it('writes a UTC day in figures, in the order of the language', () => {
    expect(formatShortDay('2024-07-17', 'en')).toBe('7/17/2024')
    expect(formatShortDay('2024-07-17', 'zh')).toBe('2024/7/17')
    expect(formatShortDay('2024-07-17', 'vi')).toBe('17/7/2024')
  })

  it('shows anything else as it is', () => {
    expect(formatShortDay('2024-13-45', 'en')).toBe('2024-13-45')
  })
})

describe('bpsToPercent', () => {
  it.each([
    [0, '0%'],
    [5, '0.05%'],
    [50, '0.5%'],
    [500, '5%'],
    [1250, '12.5%'],
    [1234, '12.34%'],
    [10000, '100%'],
    [-250, '-2.5%'],
  ])('%i bps → %s', (bps, text) => {
    expect(bpsToPercent(bps)).toBe(text)
  })
})

describe('bpsToMultiple', () => {
  it.each([
    [10000, '×1'],
    [15000, '×1.5'],
    [10600, '×1.06'],
    [12345, '×1.2345'],
    [5, '×0.0005'],
    [0, '×0'],
  ])('%i bps → %s', (bps, text) => {
    expect(bpsToMultiple(bps)).toBe(text)
  })
})
