/**
 * Numbers for people, in a language, from base units (bigint or a decimal string of digits), exactly: the one number
 * formatter of the web app (apps/web/src/lib/format.ts builds its kinds of figures on it) and of the server's
 * messages (an amount a refusal names: messages/index.ts). Never through a float.
 */

/**
 * The grouping and decimal separators of a language, as Intl.NumberFormat writes them (the web app's format.test.ts
 * holds this table to Intl). The first Intl.NumberFormat a page builds loads the locale's ICU data, ≈20 ms on a
 * desktop and four times that on a phone, inside the first screen's render: the product's languages go without it.
 */
interface NumberFormat {
  /** The whole part with the language's grouping. */
  group: (whole: bigint) => string
  decimal: string
}

const grouped = (separator: string, decimal: string): NumberFormat => ({
  group: (whole) => whole.toString().replace(/\B(?=(\d{3})+$)/g, separator),
  decimal,
})

/** Per language, built once: the product's languages from the table, any other from Intl when first asked for. */
const formats = new Map<string, NumberFormat>([
  ['en', grouped(',', '.')],
  ['zh', grouped(',', '.')],
  ['ja', grouped(',', '.')],
  ['ko', grouped(',', '.')],
  ['vi', grouped('.', ',')],
])

function numberFormat(language: string | undefined): NumberFormat {
  const key = language ?? ''
  let format = formats.get(key)
  if (!format) {
    const integer = new Intl.NumberFormat(language, { useGrouping: true, maximumFractionDigits: 0 })
    const decimal =
      new Intl.NumberFormat(language).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.'
    format = { group: (whole) => integer.format(whole), decimal }
    formats.set(key, format)
  }
  return format
}

/**
 * Which way dropped decimals go: 'down' (towards zero: what someone has), 'up' (away from zero: a minimum to reach),
 * 'half-up' (to the nearest, a half away from zero: anything else). Never cut otherwise.
 */
export type Rounding = 'down' | 'up' | 'half-up'

/** A non-negative amount divided by a step, the remainder dropped the way `round` says. */
export const divideRounding = (abs: bigint, step: bigint, round: Rounding) =>
  (abs + (round === 'up' ? step - 1n : round === 'half-up' ? step / 2n : 0n)) / step

export interface UnitsFormat {
  /** Decimals shown at most (default: all); trailing zeros are dropped. */
  shown?: number
  /** '+' before positive amounts. */
  signed?: boolean
  /** Which way dropped decimals go (default 'down'). */
  round?: Rounding
}

/**
 * Base units (bigint or a decimal string of digits) as a number for people in a language, with its grouping and
 * decimal separators: formatUnits(1234567890000n, 9, 'en', { shown: 4 }) → '1,234.5678'; in 'vi' '1.234,5678'. Exact
 * at any size (bigint arithmetic, never a float).
 * Dropped decimals are rounded towards zero unless `round` says 'up' or 'half-up', so that what someone has is never
 * shown as more than it is; a non-zero amount too small to show reads '<0.0001'.
 */
export function formatUnits(
  value: bigint | string,
  decimals: number,
  language: string | undefined,
  { shown = decimals, signed = false, round = 'down' }: UnitsFormat = {},
): string {
  const units = typeof value === 'bigint' ? value : BigInt(value)
  const negative = units < 0n
  const abs = negative ? -units : units
  const places = Math.max(0, Math.min(shown, decimals))
  const step = 10n ** BigInt(decimals - places)
  const kept = divideRounding(abs, step, round)
  const { group, decimal } = numberFormat(language)
  const sign = negative ? '-' : signed && units > 0n ? '+' : ''
  if (kept === 0n && abs !== 0n) return `${sign}<${group(0n)}${decimal}${'1'.padStart(places, '0')}`
  const scale = 10n ** BigInt(places)
  const fraction = (kept % scale).toString().padStart(places, '0').replace(/0+$/, '')
  return `${sign}${group(kept / scale)}${fraction ? `${decimal}${fraction}` : ''}`
}
