/**
 * Money is an integer count of base units (bigint), sent in JSON as a decimal string of digits. These helpers convert
 * between what a person types ("100.5") and base units (100500000n for 6 decimals) exactly, never through floats.
 */
const DECIMAL = /^([0-9]+)(?:\.([0-9]*))?$/

export type AmountError = 'empty' | 'format' | 'decimals' | 'too_large'

/** Parses a typed amount into base units; refuses signs, exponents, more decimals than the asset has, > 38 digits. */
export function parseAmount(
  text: string,
  decimals: number,
): { ok: true; value: bigint } | { ok: false; error: AmountError } {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, error: 'empty' }
  const match = DECIMAL.exec(trimmed)
  if (!match) return { ok: false, error: 'format' }
  const [, whole = '', fraction = ''] = match
  const significant = fraction.replace(/0+$/, '')
  if (significant.length > decimals) return { ok: false, error: 'decimals' }
  const digits = `${whole}${fraction.padEnd(decimals, '0').slice(0, decimals)}`.replace(/^0+(?=\d)/, '')
  if (digits.length > 38) return { ok: false, error: 'too_large' }
  return { ok: true, value: BigInt(digits) }
}

/** Formats base units for people: 100500000n with 6 decimals → "100.5" (no trailing zeros, no grouping). */
export function formatAmount(value: bigint | string, decimals: number): string {
  const units = typeof value === 'bigint' ? value : BigInt(value)
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}
