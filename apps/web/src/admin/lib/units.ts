import { type AmountError, formatAmount, parseAmount } from '@solpledge/contract/client'
import i18next from 'i18next'
import { formatUnits as formatForPeople } from '@/lib/format.ts'

/**
 * What people type in the console and what the API stores: amounts as decimals of the asset (base units in the API),
 * rates and multiples as percentages (basis points in the API: 1 % = 100 bps). All exact, through the contract's
 * amount helpers, never through floating point.
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: AmountError | 'range' }

/** Decimals of a percentage: one basis point is 0.01 %. */
const PERCENT_DECIMALS = 2

/**
 * Base units for operators, to the last unit, grouped in the console's language (lib/format.ts): '1,100.5 USDT';
 * negative amounts keep their sign.
 */
export function formatUnits(units: string | bigint, decimals: number, symbol?: string) {
  const text = formatForPeople(units, decimals, i18next.resolvedLanguage ?? 'en')
  return symbol ? `${text} ${symbol}` : text
}

/**
 * An amount the API gives in the asset's units ('1100.5', asset settings), for operators as formatUnits writes base
 * units: '1,100.5 USDT'.
 */
export function formatAssetUnits(amount: string, decimals: number, symbol?: string) {
  const parsed = parseAmount(amount, decimals)
  return parsed.ok ? formatUnits(parsed.value, decimals, symbol) : amount
}

/** Basis points as a typed percentage: 150 → '1.5', 10600 → '106'. */
export const bpsToPercent = (bps: number) => formatAmount(BigInt(bps), PERCENT_DECIMALS)

/** Basis points of a typed percentage ('1.5' → 150), at most `max` bps. */
export function parsePercent(text: string, max = Number.MAX_SAFE_INTEGER): Parsed<number> {
  const parsed = parseAmount(text, PERCENT_DECIMALS)
  if (!parsed.ok) return parsed
  return parsed.value > BigInt(max) ? { ok: false, error: 'range' } : { ok: true, value: Number(parsed.value) }
}

/** A typed whole number within [min, max]. */
export function parseInteger(text: string, min: number, max: number): Parsed<number> {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, error: 'empty' }
  if (!/^-?[0-9]+$/.test(trimmed)) return { ok: false, error: 'format' }
  const value = Number(trimmed)
  return Number.isSafeInteger(value) && value >= min && value <= max
    ? { ok: true, value }
    : { ok: false, error: 'range' }
}
