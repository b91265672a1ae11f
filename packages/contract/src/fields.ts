import { Type } from 'typebox'
import { ID_PATTERN } from './ids.ts'

/**
 * The shared field schemas that keep wrong input out at the boundary (docs/architecture.md#api-conventions): text that
 * PostgreSQL can store, ids that a bigint can hold. Every string of a request body is one of these, a pattern, a format
 * or a literal; every number has bounds (apps/server/test/fuzz.test.ts checks every route's body for it).
 */

export const Id = Type.String({ pattern: ID_PATTERN, description: 'Numeric id' })

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

/**
 * A choice among `names` that clients written from the spec send as a number (1 for `names[0]`, 2 for the next, …)
 * or as a numeric string ('1'), taken alongside the names themselves. Anything else is refused like any bad field;
 * handlers read the name with `enumName`. At most 9 names (one digit).
 */
export const NumberedEnum = <const T extends readonly [string, ...string[]]>(names: T, description: string) =>
  Type.Union(
    [
      ...(names.map((name) => Type.Literal(name)) as { [K in keyof T]: ReturnType<typeof Type.Literal<T[K]>> }),
      Type.Integer({ minimum: 1, maximum: names.length }),
      Type.String({ pattern: `^[1-${names.length}]$` }),
    ],
    { description: `${description}: ${names.map((name, i) => `${name} (or ${i + 1})`).join(', ')}` },
  )

/** The name a NumberedEnum value stands for (the value is valid: the schema checked it). */
export const enumName = <const T extends readonly string[]>(names: T, value: T[number] | number | string): T[number] =>
  typeof value === 'number' || /^[0-9]$/.test(value) ? (names[Number(value) - 1] as T[number]) : value
