import { Type } from 'typebox'

/**
 * The shared field schemas that keep wrong input out at the boundary (issue 12): text that PostgreSQL can store, ids
 * that a bigint can hold. Every string of a request body is one of these, a pattern, a format or a literal; every
 * number has bounds (apps/server/test/fuzz.test.ts checks every route's body for it).
 */

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
export const Id = Type.String({ pattern: ID_PATTERN, description: 'Numeric id' })
const ID = new RegExp(ID_PATTERN)
/** True when `value` is a row id, as the Id schema checks it. */
export const isId = (value: string): boolean => ID.test(value)

/**
 * Characters no text field takes: NUL (PostgreSQL text cannot hold it), the other C0 controls and DEL, and lone
 * surrogates (not UTF-8). Patterns are Unicode regular expressions (Ajv and TypeBox use the u flag), so a surrogate
 * pair, e.g. an emoji, is one character and passes.
 */
const CONTROLS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f\\ud800-\\udfff'
/** One character of one line of text, as a regular expression class: no control character at all. */
export const TEXT_CHAR = `[^\\t\\n\\r${CONTROLS}]`
/** One line of text. */
export const TEXT_PATTERN = `^${TEXT_CHAR}*$`
/** Text that may span lines: tabs and line breaks allowed, no other control characters. */
export const MULTILINE_PATTERN = `^[^${CONTROLS}]*$`

interface TextOptions {
  minLength?: number
  maxLength: number
  description?: string
}
/** One line of text of at most maxLength characters. */
export const Text = (options: TextOptions) => Type.String({ ...options, pattern: TEXT_PATTERN })
/** Text of at most maxLength characters that may span lines. */
export const MultilineText = (options: TextOptions) => Type.String({ ...options, pattern: MULTILINE_PATTERN })
