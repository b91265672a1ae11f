// Ids and bounds as plain values, without schemas: the web app's first chunk may import these (client.ts).

/** The largest PostgreSQL bigint: no id is larger. */
export const MAX_ID = 9223372036854775807n

/** The last second of the year 9999 (Unix seconds): later times are refused, whatever a Date could hold. */
export const MAX_UNIX_SECONDS = 253_402_300_799

/** A regular expression source matching the decimal integers 1 … max, without leading zeros. */
export function decimalUpTo(max: bigint): string {
  const digits = max.toString()
  const n = digits.length
  const alternatives = n > 1 ? [`[1-9][0-9]{0,${n - 2}}`] : []
  for (let i = 0; i < n; i++) {
    const low = i === 0 ? 1 : 0
    const high = Number(digits[i]) - 1
    if (high >= low) alternatives.push(`${digits.slice(0, i)}[${low}-${high}][0-9]{${n - 1 - i}}`)
  }
  alternatives.push(digits)
  return `^(?:${alternatives.join('|')})$`
}

/** A row id: a decimal string from 1 to MAX_ID (a larger one names nothing, and PostgreSQL would fail on it). */
export const ID_PATTERN = decimalUpTo(MAX_ID)
const ID = new RegExp(ID_PATTERN)
/** True when `value` is a row id, as the Id schema checks it. */
export const isId = (value: string): boolean => ID.test(value)
