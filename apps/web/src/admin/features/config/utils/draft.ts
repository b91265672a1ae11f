import { BusinessConfig } from '@solpledge/contract'
import { CONFIG_AMOUNTS, CONFIG_RATES, type ConfigAsset, formatAmount, parseAmount } from '@solpledge/contract/client'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { bpsToPercent, parseInteger, parsePercent } from '@/admin/lib/units.ts'

/**
 * The business configuration form (docs/admin.md#business-configuration), driven by the contract's schema: every leaf
 * of BusinessConfig becomes a text field (or a checkbox or a choice) in the unit people think in, and is read back with
 * validation. Amounts are decimals of USDT or of {product} (base units in the API); rates and multiples are percentages
 * (basis points in the API). A field the server adds later still gets a plain field: only amounts and rates need
 * naming, and the contract names them once (CONFIG_UNITS in economics.ts, which the server's bounds and
 * notices use too).
 */

/** A path into the configuration as the server's change list spells it: 'pledge.minUsdt', 'finance[1].outputBps'. */
export type Path = readonly (string | number)[]
export const pathText = (path: Path) =>
  path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part),
    '',
  )
/** The path without its array indices: what names a field whatever row it is in ('finance.outputBps'). */
export const fieldName = (path: Path) => path.filter((part) => typeof part === 'string').join('.')

/** Which asset an amount is counted in: USDT, or the platform's token ({product}); the contract names them. */
type AmountAsset = ConfigAsset

export interface Decimals {
  usdt: number
  product: number
}

type Leaf =
  | { kind: 'amount'; asset: AmountAsset }
  | { kind: 'percent' }
  | { kind: 'integer' }
  | { kind: 'choice'; options: number[] }
  | { kind: 'text' }
  | { kind: 'boolean' }

interface JsonSchema {
  type?: string
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: { const?: unknown }[]
  minimum?: number
  maximum?: number
}

/** What kind of field a leaf of the schema is, by its schema and, for amounts and rates, its name. */
export function leafOf(schema: JsonSchema, path: Path): Leaf {
  const name = fieldName(path)
  if (schema.anyOf?.every((option) => typeof option.const === 'number'))
    return { kind: 'choice', options: schema.anyOf.map((option) => option.const as number) }
  if (schema.type === 'boolean') return { kind: 'boolean' }
  if (schema.type === 'integer' || schema.type === 'number')
    return CONFIG_RATES.has(name) ? { kind: 'percent' } : { kind: 'integer' }
  const asset = CONFIG_AMOUNTS[name]
  return asset ? { kind: 'amount', asset } : { kind: 'text' }
}

/** The configuration's schema as plain JSON Schema, for walking. */
export const configSchema = BusinessConfig as unknown as JsonSchema

/** The schema of the value at `path`, or undefined when the schema has no such place. */
function schemaAt(path: Path, schema: JsonSchema = configSchema): JsonSchema | undefined {
  let current: JsonSchema | undefined = schema
  for (const part of path) current = typeof part === 'number' ? current?.items : current?.properties?.[part]
  return current
}

/** The form's state: the configuration's shape with every number and amount as the text in its field. */
export type Draft = string | boolean | readonly Draft[] | { readonly [key: string]: Draft }

/** A leaf value as the text people edit: '100' for 100000000 USDT base units, '1.5' for 150 bps. */
function leafText(leaf: Leaf, value: unknown, decimals: Decimals): string | boolean {
  if (leaf.kind === 'boolean') return value === true
  if (leaf.kind === 'amount') return formatAmount(String(value), decimals[leaf.asset])
  if (leaf.kind === 'percent') return bpsToPercent(Number(value))
  return String(value)
}

export function toDraft(value: unknown, decimals: Decimals, path: Path = [], schema = configSchema): Draft {
  if (schema.type === 'array' && schema.items && Array.isArray(value)) {
    const items = schema.items
    return value.map((item, index) => toDraft(item, decimals, [...path, index], items))
  }
  if (schema.type === 'object' && schema.properties && typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>
    return Object.fromEntries(
      Object.entries(schema.properties).map(([key, child]) => [
        key,
        toDraft(record[key], decimals, [...path, key], child),
      ]),
    )
  }
  return leafText(leafOf(schema, path), value, decimals)
}

/** Why a field cannot be read: a key of the console's 'config.errors' texts, with its values. */
export interface FieldError {
  key: 'empty' | 'format' | 'decimals' | 'too_large' | 'range' | 'minimum' | 'maximum' | 'minItems' | 'invalid'
  params?: Record<string, string | number>
}
export type FieldErrors = Record<string, FieldError>

function readLeaf(leaf: Leaf, text: Draft, decimals: Decimals): { value: unknown } | { error: FieldError } {
  if (leaf.kind === 'boolean') return { value: text === true }
  const typed = String(text)
  if (leaf.kind === 'text') return { value: typed.trim() }
  const parsed =
    leaf.kind === 'amount'
      ? parseAmount(typed, decimals[leaf.asset])
      : leaf.kind === 'percent'
        ? parsePercent(typed)
        : parseInteger(typed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
  if (!parsed.ok)
    return parsed.error === 'decimals'
      ? { error: { key: 'decimals', params: { decimals: leaf.kind === 'amount' ? decimals[leaf.asset] : 2 } } }
      : { error: { key: parsed.error } }
  if (leaf.kind === 'amount') return { value: parsed.value.toString() }
  if (leaf.kind === 'choice' && !leaf.options.includes(Number(parsed.value))) return { error: { key: 'invalid' } }
  return { value: parsed.value }
}

function fromDraft(draft: Draft, decimals: Decimals, errors: FieldErrors, path: Path, schema: JsonSchema): unknown {
  if (schema.type === 'array' && schema.items && Array.isArray(draft)) {
    const items = schema.items
    return draft.map((item, index) => fromDraft(item, decimals, errors, [...path, index], items))
  }
  if (schema.type === 'object' && schema.properties && typeof draft === 'object' && !Array.isArray(draft)) {
    const record = draft as Record<string, Draft>
    return Object.fromEntries(
      Object.entries(schema.properties).map(([key, child]) => [
        key,
        fromDraft(record[key] ?? '', decimals, errors, [...path, key], child),
      ]),
    )
  }
  const read = readLeaf(leafOf(schema, path), draft, decimals)
  if ('error' in read) errors[pathText(path)] = read.error
  return 'value' in read ? read.value : undefined
}

/** '/pledge/periods/0/days' (JSON pointer) → 'pledge.periods[0].days'. */
const pointerPath = (pointer: string): Path =>
  pointer
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part))

/**
 * Reads the form back into a configuration, checked against the contract's schema; or the errors by field path
 * ('' for the configuration as a whole). Amounts and rates out of the schema's bounds are reported in the field's
 * own unit.
 */
export function readDraft(
  draft: Draft,
  decimals: Decimals,
): { ok: true; value: BusinessConfig } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {}
  const value = fromDraft(draft, decimals, errors, [], configSchema)
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  for (const error of Value.Errors(BusinessConfig as TSchema, value)) {
    const path = pointerPath(error.instancePath)
    const key = pathText(path)
    if (errors[key]) continue
    const limit = (error.params as { limit?: number }).limit
    const schema = schemaAt(path)
    const shown = (bound: number) => (schema ? leafText(leafOf(schema, path), bound, decimals) : bound)
    errors[key] =
      error.keyword === 'minimum' || error.keyword === 'maximum'
        ? { key: error.keyword, params: { limit: String(shown(limit ?? 0)) } }
        : error.keyword === 'minItems'
          ? { key: 'minItems', params: { limit: limit ?? 1 } }
          : { key: 'invalid' }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: value as BusinessConfig }
}

/** One changed leaf between two configurations, as the server's version history lists them. */
export interface Change {
  path: string
  before: unknown
  after: unknown
}

/** The leaves that differ between two values (a row added or removed shows as its leaves). */
export function diff(before: unknown, after: unknown, path: Path = []): Change[] {
  const isContainer = (value: unknown) => typeof value === 'object' && value !== null
  if (isContainer(before) && isContainer(after) && Array.isArray(before) === Array.isArray(after)) {
    const keys = Array.isArray(before)
      ? [...Array(Math.max(before.length, (after as unknown[]).length)).keys()]
      : [...new Set([...Object.keys(before as object), ...Object.keys(after as object)])]
    return keys.flatMap((key) =>
      diff((before as Record<string | number, unknown>)[key], (after as Record<string | number, unknown>)[key], [
        ...path,
        key,
      ]),
    )
  }
  if (isContainer(before) || isContainer(after)) {
    // A whole row on one side only: list its leaves against nothing.
    const side = (isContainer(before) ? before : after) as Record<string, unknown>
    return Object.keys(side).flatMap((key) =>
      diff(isContainer(before) ? side[key] : undefined, isContainer(after) ? side[key] : undefined, [
        ...path,
        Array.isArray(side) ? Number(key) : key,
      ]),
    )
  }
  return Object.is(before, after) ? [] : [{ path: pathText(path), before, after }]
}

/** 'pledge.periods[0].days' → ['pledge', 'periods', 0, 'days']. */
export const parsePath = (text: string): Path =>
  text
    .split(/\.|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part))

/** A leaf value of the configuration for people, in its unit: '100 USDT', '1.5 %', '30'; '—' for nothing. */
export function formatLeaf(
  pathString: string,
  value: unknown,
  decimals: Decimals,
  symbols: Record<AmountAsset, string>,
) {
  if (value === undefined || value === null) return '—'
  const path = parsePath(pathString)
  const schema = schemaAt(path)
  if (!schema || typeof value === 'object') return JSON.stringify(value)
  const leaf = leafOf(schema, path)
  const text = leafText(leaf, value, decimals)
  if (leaf.kind === 'amount') return `${text} ${symbols[leaf.asset]}`
  if (leaf.kind === 'percent') return `${text} %`
  return String(text)
}
