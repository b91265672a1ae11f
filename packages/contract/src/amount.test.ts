import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatAmount, parseAmount } from './amount.ts'

describe('amounts', () => {
  it.each([
    ['100', 6, 100_000_000n],
    ['100.5', 6, 100_500_000n],
    ['0.000001', 6, 1n],
    ['1.500000000', 6, 1_500_000n],
    ['007.25', 2, 725n],
    ['5.', 9, 5_000_000_000n],
    ['0', 6, 0n],
  ])('parses %s with %i decimals', (text, decimals, expected) => {
    expect(parseAmount(text, decimals)).toEqual({ ok: true, value: expected })
  })
  it.each([
    ['', 'empty'],
    ['  ', 'empty'],
    ['-1', 'format'],
    ['1e6', 'format'],
    ['1,000', 'format'],
    ['.5', 'format'],
    ['0x10', 'format'],
    ['1.0000001', 'decimals'],
    ['9'.repeat(39), 'too_large'],
  ])('refuses %j (%s)', (text, error) => {
    expect(parseAmount(text, 6)).toEqual({ ok: false, error })
  })
  it('formats without floats or trailing zeros', () => {
    expect(formatAmount(100_500_000n, 6)).toBe('100.5')
    expect(formatAmount('1', 9)).toBe('0.000000001')
    expect(formatAmount(0n, 6)).toBe('0')
    expect(formatAmount(-1_500n, 3)).toBe('-1.5')
    expect(formatAmount(10n ** 37n, 0)).toBe(`1${'0'.repeat(37)}`)
  })
  it('format then parse is the identity on base units', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 38n - 1n }), fc.integer({ min: 0, max: 18 }), (units, decimals) => {
        expect(parseAmount(formatAmount(units, decimals), decimals)).toEqual({ ok: true, value: units })
      }),
    )
  })
})
