// fast-check arbitraries from the contract's body schemas (TypeBox 1 builds plain JSON Schema): valid values, and wrong
// ones made by breaking a valid value in one place. Only the JSON Schema keywords the contract uses are walked; an
// unknown keyword throws so that a new kind of schema is noticed here rather than silently fuzzed as "anything".
import { ID_PATTERN, MAX_ID, MULTILINE_PATTERN, TEXT_PATTERN } from '@solpledge/contract'
import fc from 'fast-check'
import { Value } from 'typebox/value'

export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null'
  const?: unknown
  anyOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
}

/** Characters no body text may hold: NUL (PostgreSQL text cannot), other controls, a lone surrogate (not UTF-8). */
export const FORBIDDEN_CHARS = ['\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u007f', '\ud800', '\udfff']
/** Ids past PostgreSQL's bigint: 2^63, nineteen nines, 2^64. */
export const HUGE_IDS = ['9223372036854775808', '9999999999999999999', '18446744073709551616']
/** Numbers no field takes: beyond every bound, past 2^53 and 2^63, fractional (no body field is a float). */
export const WILD_NUMBERS = [1e308, -1e308, 2 ** 63, -(2 ** 63), 2 ** 53 + 2, 0.5, -0.000001]
/** Values of every JSON type, for "wrong type" (kept only where the schema refuses them). */
const ANY_TYPE: unknown[] = [null, true, false, 0, 1, -1, 1.5, '', '1', 'x', [], [1], {}, { a: 1 }]

/** Property names of ids: `id`, `…_id`, `base_version`. */
const ID_NAME = /(^|[/_])id$|version$/
/** A numeric id: digits only, named `id`, `…_id` or `…version`. It must stop at bigint. */
const isNumericId = (schema: JsonSchema, name: string) =>
  ID_NAME.test(name) && fc.sample(valid(schema), { numRuns: 10, seed: 1 }).every((s) => /^[0-9]+$/.test(String(s)))

/** The keywords a string schema may have; `x-unit` annotates a configuration amount and does not validate. */
const STRING_KEYWORDS = new Set([
  'type',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'description',
  'default',
  'x-unit',
])

/** Values the schema accepts (small: at most a few items per array, short free text). */
export function valid(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const)
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(valid))
  switch (schema.type) {
    case 'object': {
      const props = Object.entries(schema.properties ?? {}).map(([key, value]) => [key, valid(value)] as const)
      return fc.record(Object.fromEntries(props), { requiredKeys: schema.required ?? [] })
    }
    case 'array': {
      const min = schema.minItems ?? 0
      return fc.array(valid(schema.items as JsonSchema), { minLength: min, maxLength: Math.max(min, 2) })
    }
    case 'string': {
      for (const key of Object.keys(schema))
        if (!STRING_KEYWORDS.has(key)) throw new Error(`schema-fuzz: unknown string keyword ${key}`)
      const min = schema.minLength ?? 0
      const max = Math.min(schema.maxLength ?? 24, min + 24)
      if (schema.format === 'date-time')
        return fc
          .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString())
      if (schema.format === 'date')
        return fc
          .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10))
      if (schema.format) throw new Error(`schema-fuzz: unknown format ${schema.format}`)
      // Text fields: printable ASCII is always valid text; a regex-made string seldom reaches a large minLength.
      if (schema.pattern === TEXT_PATTERN || schema.pattern === MULTILINE_PATTERN)
        return fc.string({ minLength: min, maxLength: max })
      if (schema.pattern === ID_PATTERN) return fc.bigInt({ min: 1n, max: MAX_ID }).map(String)
      if (schema.pattern)
        return fc
          .stringMatching(new RegExp(schema.pattern, 'u'), { size: 'xsmall' })
          .filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY))
      return fc.string({ minLength: min, maxLength: max })
    }
    case 'integer':
    case 'number': {
      const min = Math.max(schema.minimum ?? -1e9, -1e9)
      const max = Math.min(schema.maximum ?? 1e9, 1e9)
      return schema.type === 'integer'
        ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
        : fc.double({ min, max, noNaN: true })
    }
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
  }
  throw new Error(`schema-fuzz: unknown schema ${JSON.stringify(schema)}`)
}

const refuses = (schema: JsonSchema, value: unknown) => !Value.Check(schema, value)

/** The value as it arrives after JSON (undefined dropped, NaN null, an own __proto__ kept). */
const asJson = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)))

/** The values of `arbitrary`, as JSON sends them, that `schema` refuses. */
export const refused = (schema: JsonSchema, arbitrary: fc.Arbitrary<unknown>) =>
  arbitrary.map(asJson).filter((value) => refuses(schema, value))

/** Inserts `char` at a position of `text` chosen by `at`. */
const insertAt = (text: string, char: string, at: number) => {
  const i = at % (text.length + 1)
  return text.slice(0, i) + char + text.slice(i)
}

/**
 * Values that must be refused where `schema` stands. Two kinds: plain wrong values (wrong type, outside the bounds,
 * missing or unknown property, too many items), kept only when the schema refuses them; and values no careful schema
 * accepts anywhere (a NUL or other control character in text, ids past bigint, numbers past every bound, text longer
 * than any field), sent whatever the schema says: a schema that accepts them is a hole the fuzz test reports.
 */
export function wrong(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  const plain: fc.Arbitrary<unknown>[] = [fc.constantFrom(...ANY_TYPE), fc.anything({ maxDepth: 2 })]
  const nasty: fc.Arbitrary<unknown>[] = []
  if (schema.anyOf || 'const' in schema) {
    // Breaking each alternative: what is wrong for all of them.
    for (const alternative of schema.anyOf ?? []) plain.push(wrong(alternative, name))
    return refused(schema, fc.oneof(...plain))
  }
  switch (schema.type) {
    case 'object': {
      const props = schema.properties ?? {}
      const required = schema.required ?? []
      const base = valid(schema) as fc.Arbitrary<Record<string, unknown>>
      const keys = Object.keys(props)
      if (keys.length > 0) {
        // One property broken (recursively), the rest valid.
        const broken = fc
          .constantFrom(...keys)
          .chain((key) =>
            fc.tuple(base, wrong(props[key] as JsonSchema, key)).map(([value, bad]) => ({ ...value, [key]: bad })),
          )
        nasty.push(broken)
      }
      if (required.length > 0)
        plain.push(
          fc.tuple(base, fc.constantFrom(...required)).map(([value, key]) => {
            const { [key]: _dropped, ...rest } = value
            return rest
          }),
        )
      // An unknown property (also one that would poison a prototype) and deep nesting.
      plain.push(
        fc
          .tuple(base, fc.constantFrom('extra', 'admin', '__proto__', 'constructor', 'user_id'), fc.anything())
          .map(([value, key, extra]) => ({ ...value, [key]: extra })),
      )
      nasty.push(
        fc.tuple(base, fc.integer({ min: 50, max: 500 })).map(([value, depth]) => {
          let deep: unknown = 1
          for (let i = 0; i < depth; i++) deep = { a: [deep] }
          return { ...value, nested: deep }
        }),
      )
      break
    }
    case 'array': {
      const item = schema.items as JsonSchema
      plain.push(fc.array(wrong(item), { minLength: 1, maxLength: 3 }))
      if (schema.maxItems !== undefined)
        plain.push(fc.array(valid(item), { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 1 }))
      if (schema.minItems) plain.push(fc.constant([]))
      break
    }
    case 'string': {
      const base = valid(schema) as fc.Arbitrary<string>
      nasty.push(
        fc.tuple(base, fc.constantFrom(...FORBIDDEN_CHARS), fc.nat()).map(([s, c, at]) => insertAt(s, c, at)),
        // Longer than the field allows, and than any field should (a string without maxLength is a hole).
        fc.constant('9'.repeat((schema.maxLength ?? 10_000) + 1)),
      )
      if (isNumericId(schema, name)) nasty.push(fc.constantFrom(...HUGE_IDS))
      plain.push(
        fc.constantFrom('', ' ', '0', '-1', '1.5', '1e3', '0x10', '+1', ' 1', '١٢٣', '1'.padEnd(39, '0'), ...HUGE_IDS),
        // Any UTF-16 code units (fc.string's unit 'binary' takes seconds to set up).
        fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((units) => String.fromCharCode(...units)),
      )
      if (schema.format)
        plain.push(
          fc.constantFrom(
            '0000-01-01T00:00:00Z',
            '9999-12-31T23:59:60Z',
            '2024-02-30T00:00:00Z',
            '2024-01-01T00:00:00+99:00',
            '+275760-09-13T00:00:00Z',
            '2024-13-01',
            '2024-02-30',
            '0000-00-00',
          ),
        )
      if (schema.minLength) plain.push(fc.constant('9'.repeat(schema.minLength - 1)))
      break
    }
    case 'integer':
    case 'number': {
      nasty.push(fc.constantFrom(...WILD_NUMBERS))
      if (schema.maximum !== undefined) plain.push(fc.constant(schema.maximum + 1))
      if (schema.minimum !== undefined) plain.push(fc.constant(schema.minimum - 1))
      plain.push(fc.double(), fc.constantFrom('1', '1e308', 'NaN', 'Infinity', '-0'))
      break
    }
  }
  return fc.oneof(refused(schema, fc.oneof(...plain)), ...nasty)
}

/**
 * Every place of a body schema that accepts what no field may hold — the holes the fuzz test looks for: an open object,
 * text with control characters or without a length bound, an id past bigint, a number past every bound.
 */
export function holes(schema: JsonSchema, path = ''): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap((s) => holes(s, path))
  if ('const' in schema) return []
  switch (schema.type) {
    case 'object':
      return [
        ...(schema.additionalProperties === false ? [] : [`${path || '/'}: accepts unknown properties`]),
        ...Object.entries(schema.properties ?? {}).flatMap(([key, s]) => holes(s, `${path}/${key}`)),
      ]
    case 'array':
      return holes(schema.items as JsonSchema, `${path}/0`)
    case 'string': {
      const found: string[] = []
      const sample = fc.sample(valid(schema), { numRuns: 20, seed: 1 }) as string[]
      const accepted = FORBIDDEN_CHARS.filter((char) => sample.some((s) => Value.Check(schema, insertAt(s, char, 0))))
      if (accepted.length > 0) found.push(`${path}: accepts ${accepted.map((c) => JSON.stringify(c)).join(' ')}`)
      if (schema.maxLength === undefined && Value.Check(schema, '9'.repeat(100_000)))
        found.push(`${path}: no maxLength`)
      if (isNumericId(schema, path))
        found.push(...HUGE_IDS.filter((id) => Value.Check(schema, id)).map((id) => `${path}: accepts id ${id}`))
      return found
    }
    case 'integer':
    case 'number':
      return WILD_NUMBERS.filter((n) => Value.Check(schema, n)).map((n) => `${path}: accepts ${n}`)
  }
  return []
}
