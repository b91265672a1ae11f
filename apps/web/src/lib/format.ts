import { divideRounding, formatUnits, type Rounding } from '@solpledge/contract/client'

// The number formatter itself is the contract's (shared with the server's messages); this file adds the kinds of figures.
export { formatUnits, type Rounding, type UnitsFormat } from '@solpledge/contract/client'

/** Lower-case hex of bytes, e.g. a wallet signature (sent as hex: docs/product.md#login). */
export const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')

/** A calendar day. */
interface Ymd {
  year: number
  month: number
  day: number
}

/**
 * How the interface languages write days and times, as Chromium's Intl.DateTimeFormat writes them (dateStyle medium,
 * timeStyle short; format.test.ts holds the strings). Intl is not asked: the first Intl.DateTimeFormat a page builds
 * loads the date data, 15–25 ms on a desktop and four times that on a phone, inside the first screen's render.
 */
interface DateStyle {
  /** 'Jul 17, 2024' */
  day: (date: Ymd) => string
  /** 'Jul 17, 2024, 9:30 AM' (hour 0–23) */
  dateTime: (date: Ymd, hour: number, minute: number) => string
}

const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad2 = (value: number) => String(value).padStart(2, '0')
/** h:mm on a 12-hour clock (0:05 is 12:05). */
const twelveHour = (hour: number, minute: number) => `${hour % 12 || 12}:${pad2(minute)}`

const enDay = ({ year, month, day }: Ymd) => `${EN_MONTHS[month - 1]} ${day}, ${year}`
const zhDay = ({ year, month, day }: Ymd) => `${year}年${month}月${day}日`
const jaDay = ({ year, month, day }: Ymd) => `${year}/${pad2(month)}/${pad2(day)}`
const koDay = ({ year, month, day }: Ymd) => `${year}. ${month}. ${day}.`
const viDay = ({ year, month, day }: Ymd) => `${day} thg ${month}, ${year}`

const DATE_STYLES: Record<string, DateStyle> = {
  en: {
    day: enDay,
    dateTime: (date, hour, minute) => `${enDay(date)}, ${twelveHour(hour, minute)} ${hour < 12 ? 'AM' : 'PM'}`,
  },
  zh: {
    day: zhDay,
    dateTime: (date, hour, minute) => `${zhDay(date)} ${pad2(hour)}:${pad2(minute)}`,
  },
  ja: {
    day: jaDay,
    dateTime: (date, hour, minute) => `${jaDay(date)} ${hour}:${pad2(minute)}`,
  },
  ko: {
    day: koDay,
    dateTime: (date, hour, minute) => `${koDay(date)} ${hour < 12 ? '오전' : '오후'} ${twelveHour(hour, minute)}`,
  },
  vi: {
    day: viDay,
    dateTime: (date, hour, minute) => `${pad2(hour)}:${pad2(minute)} ${viDay(date)}`,
  },
}

/** A timestamp for people, in local time and the interface language: 'Jul 17, 2024, 9:30 AM'. Else as it is. */
export function formatDateTime(iso: string, language: string | undefined) {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const style = DATE_STYLES[language ?? '']
  if (!style) return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
  const day = { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() }
  return style.dateTime(day, date.getHours(), date.getMinutes())
}

/**
 * A UTC calendar day ('2024-07-17') for people, in the interface language: 'Jul 17, 2024' — the one way a day is
 * written, on cards, in tables and in sentences alike. Else as it is.
 */
export function formatDay(day: string, language: string | undefined) {
  const date = new Date(`${day}T00:00:00.000Z`)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(date.getTime())) return day
  const style = DATE_STYLES[language ?? '']
  if (!style) return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(date)
  return style.day({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() })
}

/** Decimals of USDT: prices, values and power are counted in USDT base units. */
export const USDT_DECIMALS = 6

/**
 * What a figure is, which decides how many decimals people see and which way the dropped ones go: 'balance' (what
 * someone has or moves: stablecoins 2, other tokens at most 4; rounded down, never shown as more than it is),
 * 'minimum' (a least amount the user must reach: as a balance, rounded up so that the amount shown is always enough),
 * 'output' (an output: stablecoins 2, other tokens at most 6; rounded down), 'fee' (a charge or a quote's estimate,
 * which nobody holds: as a balance, rounded half-up), 'price' (at most 6, rounded half-up), 'power' (a USDT-denominated
 * score: 2, rounded down), 'exact' (every decimal the asset has: detail screens and receipts).
 */
export type FigureKind = 'balance' | 'minimum' | 'output' | 'fee' | 'price' | 'power' | 'exact'

/** Which way a figure of each kind drops the decimals it does not show. */
export function roundingOf(kind: FigureKind): Rounding {
  if (kind === 'minimum') return 'up'
  if (kind === 'fee' || kind === 'price') return 'half-up'
  return 'down'
}

const STABLECOINS = new Set(['USDT', 'USDC'])

/** How many decimals a figure of an asset (symbol, on-chain decimals) shows. */
export function displayDecimals(symbol: string, decimals: number, kind: FigureKind = 'balance'): number {
  if (kind === 'exact') return decimals
  if (kind === 'price') return Math.min(decimals, 6)
  if (kind === 'power' || STABLECOINS.has(symbol)) return Math.min(decimals, 2)
  return Math.min(decimals, kind === 'output' ? 6 : 4)
}

/** A decimal string as the API sends prices ('3105.439999996') for people, like formatUnits; else as it is. */
export function formatDecimal(text: string, language: string | undefined, shown: number, round?: Rounding): string {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text)
  if (!match) return text
  const [, sign = '', whole = '', fraction = ''] = match
  return formatUnits(`${sign}${whole}${fraction}`, fraction.length, language, { shown, round })
}

/** The asset (symbol and decimals) a figure counts. */
export interface Denomination {
  symbol: string
  decimals: number
}

/** USDT: prices, values and power are counted in its base units. */
export const USDT: Denomination = { symbol: 'USDT', decimals: USDT_DECIMALS }

/**
 * The base units a figure shows once rounded to the display precision of its kind (formatAmountOf's figure, as base
 * units): 71_428n USDT as an output → 70_000n ('0.07'). What rows add up to as people read them.
 */
export function shownUnits(value: bigint | string, asset: Denomination, kind: FigureKind): bigint {
  const units = typeof value === 'bigint' ? value : BigInt(value)
  const step = 10n ** BigInt(asset.decimals - displayDecimals(asset.symbol, asset.decimals, kind))
  const kept = divideRounding(units < 0n ? -units : units, step, roundingOf(kind))
  return (units < 0n ? -kept : kept) * step
}

/**
 * Whether a total shown beside its rows agrees with them as people read them: the rows' shown figures add up to the
 * total's shown figure (each rounded by its kind). 0.071428 USDT × 7 as outputs read 0.07 × 7 = 0.49 beside a total
 * of 0.499996, shown 0.49: they agree; 0.075 + 0.075 read 0.07 + 0.07 beside 0.15: they do not.
 */
export const totalAgrees = (
  total: bigint | string,
  rows: readonly (bigint | string)[],
  asset: Denomination,
  kind: FigureKind,
) => rows.reduce<bigint>((sum, row) => sum + shownUnits(row, asset, kind), 0n) === shownUnits(total, asset, kind)

/** An amount of an asset at the display precision of its kind, without the symbol: '1,234.5678'. */
export const formatAmountOf = (
  value: bigint | string,
  asset: Denomination,
  language: string | undefined,
  kind: FigureKind = 'balance',
  signed = false,
) =>
  formatUnits(value, asset.decimals, language, {
    shown: displayDecimals(asset.symbol, asset.decimals, kind),
    signed,
    round: roundingOf(kind),
  })

/** An amount of an asset with its symbol, at the display precision of its kind: '1,234.5678 PLG', '12.5 USDT'. */
export const formatMoney = (
  value: bigint | string,
  asset: Denomination,
  language: string | undefined,
  kind: FigureKind = 'balance',
  signed = false,
) => `${formatAmountOf(value, asset, language, kind, signed)} ${asset.symbol}`

/** Computing power (USDT base units) for people: '12,345.67'. */
export const formatPower = (value: bigint | string, language: string | undefined) =>
  formatAmountOf(value, USDT, language, 'power')

/** Basis points as a percentage in the interface language: 1250 → '12.5%', in 'vi' '12,5%' (exact). */
export const formatBps = (bps: number, language: string | undefined) =>
  `${formatUnits(BigInt(Math.trunc(bps)), 2, language)}%`

/** Basis points as a multiple in the interface language: 10600 → '×1.06', in 'vi' '×1,06' (exact). */
export const formatMultiple = (bps: number, language: string | undefined) =>
  `×${formatUnits(BigInt(Math.trunc(bps)), 4, language)}`

/**
 * An exact rate (`num / den`, 1 = 100 %: packages/contract/src/returns.ts) as a percentage in the interface language,
 * rounded half away from zero to `places` decimals: { num: 73n, den: 100n } → '73%', 1825/7000 → '26.07%'.
 */
export function formatRate(rate: { num: bigint; den: bigint }, language: string | undefined, places = 2) {
  if (rate.den <= 0n) return '–'
  const scale = 100n * 10n ** BigInt(places)
  const abs = rate.num < 0n ? -rate.num : rate.num
  const rounded = (2n * abs * scale + rate.den) / (2n * rate.den)
  return `${formatUnits(rate.num < 0n ? -rounded : rounded, places, language)}%`
}
