import { describe, expect, it } from 'vitest'
import { formatDateTime, toHex } from './format.ts'

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
