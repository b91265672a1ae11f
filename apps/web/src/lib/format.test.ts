import { LANGUAGES } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import {
  displayDecimals,
  formatAmountOf,
  formatBps,
  formatDateTime,
  formatDay,
  formatDecimal,
  formatMoney,
  formatMultiple,
  formatPower,
  formatRate,
  formatUnits,
  roundingOf,
  shownUnits,
  toHex,
  totalAgrees,
} from './format.ts'

it('encodes bytes as zero-padded lower-case hex', () => {
  expect(toHex(new Uint8Array([0, 1, 15, 16, 171, 255]))).toBe('00010f10abff')
  expect(toHex(new Uint8Array())).toBe('')
})

// What Chromium's Intl.DateTimeFormat writes for these (dateStyle medium, timeStyle short), the table format.ts keeps.
const local = (year: number, month: number, day: number, hour: number, minute: number) =>
  new Date(year, month - 1, day, hour, minute).toISOString()

describe('formatDateTime', () => {
  it.each([
    ['en', local(2024, 7, 17, 9, 30), 'Jul 17, 2024, 9:30 AM'],
    ['en', local(2024, 12, 31, 0, 5), 'Dec 31, 2024, 12:05 AM'],
    ['en', local(2025, 3, 9, 12, 45), 'Mar 9, 2025, 12:45 PM'],
    ['zh', local(2024, 1, 5, 15, 7), '2024年1月5日 15:07'],
    ['zh', local(2024, 12, 31, 0, 0), '2024年12月31日 00:00'],
    ['ja', local(2024, 1, 5, 15, 7), '2024/01/05 15:07'],
    ['ja', local(2024, 12, 31, 0, 0), '2024/12/31 0:00'],
    ['ko', local(2024, 7, 17, 9, 30), '2024. 7. 17. 오전 9:30'],
    ['ko', local(2025, 3, 9, 12, 45), '2025. 3. 9. 오후 12:45'],
    ['vi', local(2024, 7, 17, 9, 30), '09:30 17 thg 7, 2024'],
    ['vi', local(2024, 1, 5, 15, 7), '15:07 5 thg 1, 2024'],
  ])('writes a %s timestamp in local time as the language does', (language, iso, expected) => {
    expect(formatDateTime(iso, language)).toBe(expected)
  })

  it('asks Intl for a language it has no table for', () => {
    const iso = local(2024, 7, 17, 9, 30)
    const expected = new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
    expect(formatDateTime(iso, 'de')).toBe(expected)
  })

  it('shows unparseable input as it is', () => {
    expect(formatDateTime('not a date', 'en')).toBe('not a date')
  })
})

describe('formatDay', () => {
  it.each([
    ['en', 'Jul 17, 2024'],
    ['zh', '2024年7月17日'],
    ['ja', '2024/07/17'],
    ['ko', '2024. 7. 17.'],
    ['vi', '17 thg 7, 2024'],
  ])('writes a UTC day in %s, whatever the local time zone', (language, expected) => {
    expect(formatDay('2024-07-17', language)).toBe(expected)
  })

  it('shows anything else as it is', () => {
    expect(formatDay('soon', 'en')).toBe('soon')
    expect(formatDay('2024-13-45', 'en')).toBe('2024-13-45')
  })
})

describe('formatBps, formatMultiple and formatRate', () => {
  it('write rates and multiples in the interface language, exactly', () => {
    expect(formatBps(1250, 'en')).toBe('12.5%')
    expect(formatBps(1250, 'vi')).toBe('12,5%')
    expect(formatBps(-250, 'en')).toBe('-2.5%')
    expect(formatMultiple(10_600, 'en')).toBe('×1.06')
    expect(formatMultiple(10_600, 'vi')).toBe('×1,06')
    expect(formatMultiple(123_456, 'en')).toBe('×12.3456')
  })

  it('rounds an exact rate half away from zero to two decimals of a percent', () => {
    expect(formatRate({ num: 73n, den: 100n }, 'en')).toBe('73%')
    expect(formatRate({ num: 1825n, den: 7000n }, 'en')).toBe('26.07%')
    expect(formatRate({ num: 1825n, den: 7000n }, 'vi')).toBe('26,07%')
    // 0.00125 → 0.13 %, −0.00125 → −0.13 %, 1/3 → 33.33 %, 2/3 → 66.67 %.
    expect(formatRate({ num: 125n, den: 100_000n }, 'en')).toBe('0.13%')
    expect(formatRate({ num: -125n, den: 100_000n }, 'en')).toBe('-0.13%')
    expect(formatRate({ num: 1n, den: 3n }, 'en')).toBe('33.33%')
    expect(formatRate({ num: 2n, den: 3n }, 'en')).toBe('66.67%')
    expect(formatRate({ num: 9125n, den: 100n }, 'en')).toBe('9,125%')
    expect(formatRate({ num: 0n, den: 1n }, 'en')).toBe('0%')
  })
})

describe('formatUnits', () => {
  it('groups thousands in each interface language, from bigint or a decimal string', () => {
    expect(formatUnits(1234567890000n, 9, 'en', { shown: 4 })).toBe('1,234.5678')
    expect(formatUnits('1234567890000', 9, 'zh', { shown: 4 })).toBe('1,234.5678')
    expect(formatUnits(1234567890000n, 9, 'ja', { shown: 4 })).toBe('1,234.5678')
    expect(formatUnits(1234567890000n, 9, 'ko', { shown: 4 })).toBe('1,234.5678')
    expect(formatUnits(1234567890000n, 9, 'vi', { shown: 4 })).toBe('1.234,5678')
    expect(formatUnits(59_999_999_999_400_000n, 6, 'en', { shown: 2 })).toBe('59,999,999,999.4')
  })

  it('writes every interface language as Intl does, without building an Intl.NumberFormat', () => {
    const values = [0n, 7n, 999n, 1000n, 12345n, 999999n, 1000000n, 1234567890123456789012345n]
    for (const language of LANGUAGES) {
      const intl = new Intl.NumberFormat(language, { maximumFractionDigits: 2 })
      for (const whole of values) {
        expect(formatUnits(whole * 100n + 25n, 2, language)).toBe(intl.format(`${whole}.25` as unknown as number))
      }
    }
  })

  it('falls back to Intl for a language outside the interface languages', () => {
    expect(formatUnits(1234567n, 2, 'de')).toBe('12.345,67')
    expect(formatUnits(1234567n, 2, 'fr')).toBe(
      new Intl.NumberFormat('fr', { minimumFractionDigits: 2 }).format(12345.67),
    )
  })

  it('never shows a float artefact and truncates what it drops (a shown balance is never more than there is)', () => {
    expect(formatUnits(3105439999996n, 9, 'en', { shown: 4 })).toBe('3,105.4399')
    expect(formatUnits(9999999999n, 9, 'en', { shown: 4 })).toBe('9.9999')
    expect(formatUnits(290000000001n, 9, 'en', { shown: 4 })).toBe('290')
    expect(formatUnits(166666666667n, 9, 'en', { shown: 4 })).toBe('166.6666')
    expect(formatUnits(-1999n, 3, 'en', { shown: 2 })).toBe('-1.99')
    // 0.1 + 0.2 in base units stays exact
    expect(formatUnits(100000n + 200000n, 6, 'en')).toBe('0.3')
  })

  it('keeps every digit of values beyond 2^53', () => {
    const huge = 2n ** 64n * 10n ** 9n + 123456789n
    expect(formatUnits(huge, 9, 'en')).toBe('18,446,744,073,709,551,616.123456789')
    expect(formatUnits(`${2n ** 100n}`, 0, 'vi')).toBe('1.267.650.600.228.229.401.496.703.205.376')
  })

  it('shows all decimals by default, drops trailing zeros, signs on request', () => {
    expect(formatUnits(100500000n, 6, 'en')).toBe('100.5')
    expect(formatUnits(0n, 9, 'en', { shown: 4 })).toBe('0')
    expect(formatUnits(5n, 0, 'en', { shown: 4, signed: true })).toBe('+5')
    expect(formatUnits(-5n, 0, 'en', { shown: 4, signed: true })).toBe('-5')
    expect(formatUnits(0n, 0, 'en', { shown: 4, signed: true })).toBe('0')
  })

  it('rounds up on request (a minimum the user must reach)', () => {
    expect(formatUnits(166666666667n, 9, 'en', { shown: 4, round: 'up' })).toBe('166.6667')
    expect(formatUnits(166000000000n, 9, 'en', { shown: 4, round: 'up' })).toBe('166')
    expect(formatMoney(166666666667n, { symbol: 'PLG', decimals: 9 }, 'en', 'minimum')).toBe('166.6667 PLG')
  })

  it('rounds half-up on request (a figure nobody holds: a fee, a price): to the nearest, a half away from zero', () => {
    // 0.598 USDT → 0.6, never cut to 0.59; 0.594999 → 0.59; exactly half → up; negative halves away from zero.
    expect(formatUnits(598_000n, 6, 'en', { shown: 2, round: 'half-up' })).toBe('0.6')
    expect(formatUnits(594_999n, 6, 'en', { shown: 2, round: 'half-up' })).toBe('0.59')
    expect(formatUnits(595_000n, 6, 'en', { shown: 2, round: 'half-up' })).toBe('0.6')
    expect(formatUnits(-595_000n, 6, 'en', { shown: 2, round: 'half-up' })).toBe('-0.6')
    expect(formatUnits(999_995_000n, 6, 'en', { shown: 2, round: 'half-up' })).toBe('1,000')
    expect(formatUnits(4_999n, 6, 'en', { shown: 2, round: 'half-up' })).toBe('<0.01')
    expect(formatUnits(5_000n, 6, 'en', { shown: 2, round: 'half-up' })).toBe('0.01')
    // Nothing dropped, nothing rounded.
    expect(formatUnits(598_000n, 6, 'en', { round: 'half-up' })).toBe('0.598')
  })

  it('says a non-zero amount too small to show is below the smallest shown step', () => {
    expect(formatUnits(1n, 9, 'en', { shown: 4 })).toBe('<0.0001')
    expect(formatUnits(1n, 6, 'vi', { shown: 2 })).toBe('<0,01')
    expect(formatUnits(-1n, 6, 'en', { shown: 2 })).toBe('-<0.01')
  })
})

describe('formatDecimal', () => {
  it('formats a decimal string exactly, truncated to the shown decimals unless told to round', () => {
    expect(formatDecimal('3105.439999996', 'en', 6)).toBe('3,105.439999')
    expect(formatDecimal('3105.439999996', 'en', 6, 'half-up')).toBe('3,105.44')
    expect(formatDecimal('0.4983335', 'en', 6, 'half-up')).toBe('0.498334')
    expect(formatDecimal('12345', 'vi', 2)).toBe('12.345')
    expect(formatDecimal('-0.5', 'en', 2)).toBe('-0.5')
    expect(formatDecimal('n/a', 'en', 2)).toBe('n/a')
  })
})

describe('displayDecimals and formatMoney', () => {
  const PLG = { symbol: 'PLG', decimals: 9 }
  const USDT = { symbol: 'USDT', decimals: 6 }

  it('chooses a display precision per asset and kind of figure', () => {
    expect(displayDecimals('USDT', 6, 'balance')).toBe(2)
    expect(displayDecimals('PLG', 9, 'balance')).toBe(4)
    expect(displayDecimals('PLG', 9, 'output')).toBe(6)
    expect(displayDecimals('USDT', 6, 'price')).toBe(6)
    expect(displayDecimals('USDT', 6, 'power')).toBe(2)
    expect(displayDecimals('USDT', 6, 'fee')).toBe(2)
    expect(displayDecimals('PLG', 9, 'fee')).toBe(4)
    expect(displayDecimals('PLG', 9, 'exact')).toBe(9)
    expect(displayDecimals('TINY', 2, 'output')).toBe(2)
  })

  it('formats an amount with its symbol', () => {
    expect(formatMoney(59_999_999_999_400_000n, USDT, 'en')).toBe('59,999,999,999.4 USDT')
    expect(formatMoney(1_234_567n, USDT, 'en')).toBe('1.23 USDT')
    expect(formatMoney(3105439999996n, PLG, 'zh', 'output')).toBe('3,105.439999 PLG')
    expect(formatMoney(3105439999996n, PLG, 'en', 'exact')).toBe('3,105.439999996 PLG')
    expect(formatMoney(-100_000_000_000n, PLG, 'en', 'balance', true)).toBe('-100 PLG')
    expect(formatMoney(100_000_000_000n, PLG, 'en', 'balance', true)).toBe('+100 PLG')
  })

  it('rounds each kind its own way: holdings and outputs down, a minimum up, fees and prices half-up', () => {
    expect(roundingOf('balance')).toBe('down')
    expect(roundingOf('output')).toBe('down')
    expect(roundingOf('power')).toBe('down')
    expect(roundingOf('minimum')).toBe('up')
    expect(roundingOf('fee')).toBe('half-up')
    expect(roundingOf('price')).toBe('half-up')
    // The swap of the example: the fee 0.598 USDT and the average price 0.4983335 as both the form and its review show them.
    expect(formatMoney(598_000n, USDT, 'en', 'fee')).toBe('0.6 USDT')
    expect(formatMoney(598_000n, USDT, 'en', 'balance')).toBe('0.59 USDT')
    expect(formatAmountOf(498_333n, USDT, 'en', 'price')).toBe('0.498333')
    expect(formatMoney(594_414_990n, USDT, 'en')).toBe('594.41 USDT')
    expect(formatMoney(15_000_123_456_789n, PLG, 'vi', 'fee')).toBe('15.000,1235 PLG')
  })

  it('formats power with two decimals and grouping', () => {
    expect(formatPower(12_345_678_901n, 'en')).toBe('12,345.67')
    expect(formatPower('240000000', 'ko')).toBe('240')
  })
})

describe('shownUnits and totalAgrees', () => {
  const USDT = { symbol: 'USDT', decimals: 6 }
  const PLG = { symbol: 'PLG', decimals: 9 }

  it('give the base units a figure shows, rounded the way of its kind', () => {
    expect(shownUnits(71_428n, USDT, 'output')).toBe(70_000n)
    expect(shownUnits('598000', USDT, 'fee')).toBe(600_000n)
    expect(shownUnits(-71_428n, USDT, 'balance')).toBe(-70_000n)
    expect(shownUnits(166_666_666_667n, PLG, 'minimum')).toBe(166_666_700_000n)
    expect(shownUnits(7_066_666_666n, PLG, 'exact')).toBe(7_066_666_666n)
  })

  it('say whether rows as shown add up to their total as shown', () => {
    // Seven days of 0.071428 USDT beside their sum 0.499996: 0.07 × 7 = 0.49, and the sum shows 0.49.
    expect(totalAgrees(499_996n, Array(7).fill('71428'), USDT, 'output')).toBe(true)
    // 0.075 + 0.075 read 0.07 + 0.07 = 0.14 beside 0.15: they cannot agree.
    expect(totalAgrees(150_000n, ['75000', '75000'], USDT, 'output')).toBe(false)
    expect(totalAgrees(0n, [], USDT, 'output')).toBe(true)
  })
})
