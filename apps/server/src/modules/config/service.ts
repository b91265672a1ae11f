import {
  type AmountParam,
  amountParam,
  BusinessConfig,
  CONFIG_AMOUNT_LIMITS,
  economicBoundProblem,
} from '@solpledge/contract'
import { Value } from 'typebox/value'
import type { Database } from '../../db/index.ts'
import { invalid } from '../../lib/app-error.ts'
import { DEFAULT_BUSINESS_CONFIG } from './defaults.ts'

/** The newest version each database read and checked: a version is checked once, not on every request. */
const inForce = new WeakMap<Database, { id: string; at: number; config: BusinessConfig }>()

/**
 * A stored version as the full configuration (withDefaults), checked against the schema. One that is not a valid
 * configuration (written by hand into config_versions, or by a build whose schema differed) is refused with its id and
 * the first problem. Every reader of config_versions goes through it, and the server's start checks every version
 * (seedBusinessConfig), so such a version stops the start rather than a request.
 */
export function storedVersion(id: string, value: unknown): BusinessConfig {
  const config = withDefaults(value)
  if (!Value.Check(BusinessConfig, config)) {
    const first = Value.Errors(BusinessConfig, config)[0]
    throw new Error(
      `business configuration version ${id} is not valid: ${first?.instancePath || '/'} ${first?.message ?? ''}; ` +
        'save a valid version in the console or insert one (docs/operations.md, "Business configuration")',
    )
  }
  return config
}

/**
 * The configuration in force: the newest version (storedVersion). Read on every use, so a change applies to the next
 * request.
 */
export async function getBusinessConfig(db: Database): Promise<BusinessConfig> {
  const row = await db
    .selectFrom('config_versions')
    .select(['id', 'value', 'created_at'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row) return withDefaults(undefined)
  const at = new Date(row.created_at).getTime()
  const known = inForce.get(db)
  if (known?.id === row.id && known.at === at) return known.config
  const config = storedVersion(row.id, row.value)
  inForce.set(db, { id: row.id, at, config: deepFreeze(config) })
  return config
}

/** Frozen all the way down: the one object handed to every request must not be changed by one of them. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** `stored` over `defaults`, objects merged field by field at every depth; lists and values are taken whole. */
function mergeDeep(defaults: unknown, stored: unknown): unknown {
  if (!isRecord(defaults) || !isRecord(stored)) return stored === undefined ? defaults : stored
  const merged: Record<string, unknown> = { ...defaults }
  for (const [key, value] of Object.entries(stored)) merged[key] = mergeDeep(defaults[key], value)
  return merged
}

/**
 * A stored version as the full configuration: fields it predates, at any depth (a top-level section, or a field added
 * inside one such as `referralGuard.directPerLevel`), come from the defaults. Lists are the version's own.
 */
export const withDefaults = (value: unknown): BusinessConfig =>
  mergeDeep(structuredClone(DEFAULT_BUSINESS_CONFIG), value) as BusinessConfig

/** USDT: the quote asset of every market, and the asset of the configuration's USDT amounts. */
export const QUOTE = 'USDT'

const duplicates = (values: (string | number)[]) => values.length !== new Set(values).size

/** Why a configuration cannot be used, beyond its schema; null when it can. */
export function configProblem(config: BusinessConfig): string | null {
  if (duplicates(config.pledge.periods.map((p) => p.days))) return 'pledge periods repeat a number of days'
  if (duplicates(config.nodeLevels.map((n) => n.code))) return 'node level codes repeat'
  if (duplicates(config.finance.map((f) => f.days))) return 'finance products repeat a period'
  if (duplicates(config.referralRewards.map((r) => r.level))) return 'referral levels repeat'
  if (config.fuelTiers.some((tier, i) => i > 0 && tier <= (config.fuelTiers[i - 1] as number)))
    return 'fuel tiers must ascend'
  return null
}

/** Why tick × lot does not give exact fills for a token of `decimals`; null when it does. */
export function tradeConfigProblem(trade: BusinessConfig['trade'], decimals: number): string | null {
  if ((BigInt(trade.tickSize) * BigInt(trade.lotSize)) % 10n ** BigInt(decimals) !== 0n)
    return `trade tickSize × lotSize must be a multiple of 10^${decimals} (one whole token)`
  if (BigInt(trade.minAmount) > BigInt(trade.maxAmount)) return 'trade minAmount is above maxAmount'
  return null
}

/**
 * The values of a configuration's field ('nodeLevels.priceUsdt': the path without row indices) with their paths
 * ('nodeLevels[1].priceUsdt'): a list on the way stands for each of its rows.
 */
function valuesAt(value: unknown, field: string): { path: string; value: string }[] {
  let found = [{ path: '', value }]
  for (const key of field.split('.'))
    found = found.flatMap(({ path: at, value: node }) => {
      const child = (node as Record<string, unknown>)[key]
      const here = at ? `${at}.${key}` : key
      return Array.isArray(child)
        ? child.map((item, i) => ({ path: `${here}[${i}]`, value: item }))
        : [{ path: here, value: child }]
    })
  return found as { path: string; value: string }[]
}

/**
 * The first amount beyond its plausible limit (CONFIG_AMOUNT_LIMITS from economics.ts, in whole tokens), as the parameters of
 * admin.tooLarge; null when there is none. Product amounts are checked against every asset but USDT.
 */
export function configLimitProblem(
  config: BusinessConfig,
  assets: { code: string; decimals: number }[],
): { field: string; max: AmountParam } | null {
  const usdt = assets.filter((a) => a.code === QUOTE)
  const product = assets.filter((a) => a.code !== QUOTE)
  for (const [path, limit] of Object.entries(CONFIG_AMOUNT_LIMITS))
    for (const asset of limit.asset === 'usdt' ? usdt : product)
      for (const field of valuesAt(config, path))
        if (BigInt(field.value) > limit.max * 10n ** BigInt(asset.decimals))
          return {
            field: field.path,
            max: amountParam(limit.max * 10n ** BigInt(asset.decimals), asset.decimals, asset.code),
          }
  return null
}

/**
 * Refuses a configuration that cannot be used, with nothing stored: its schema, the plausible amounts, the product
 * bounds (docs/economics.md: named field and bound in the caller's language) and the rules of configProblem.
 */
export async function checkBusinessConfig(db: Database, value: unknown): Promise<BusinessConfig> {
  if (!Value.Check(BusinessConfig, value)) {
    const first = Value.Errors(BusinessConfig, value)[0]
    throw invalid('error.invalidParams', { detail: `${first?.instancePath ?? ''} ${first?.message ?? ''}`.trim() })
  }
  const assets = await db.selectFrom('assets').select(['code', 'decimals']).execute()
  const limit = configLimitProblem(value, assets)
  if (limit) throw invalid('admin.tooLarge', limit)
  // Every asset traded against USDT must get exact fills: tick × lot a multiple of one whole token of it.
  const traded = assets.filter((asset) => asset.code !== QUOTE)
  const bound = economicBoundProblem(value, assets.find((asset) => asset.code === QUOTE)?.decimals ?? 6)
  if (bound) throw invalid(bound.key, bound.params)
  const problem =
    configProblem(value) ?? traded.map((asset) => tradeConfigProblem(value.trade, asset.decimals)).find(Boolean)
  if (problem) throw invalid('error.invalidParams', { detail: problem })
  return value
}

/** Stores a new version (it is in force at once) and returns its id; refuses an invalid one with nothing stored. */
export async function setBusinessConfig(db: Database, value: unknown, changedBy: string): Promise<string> {
  await checkBusinessConfig(db, value)
  const row = await db
    .insertInto('config_versions')
    .values({ value: JSON.stringify(value), changed_by: changedBy })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * Start-up: on the first start the demo configuration with `initial` (values the environment gives, such as
 * RANK_INTERVAL_MS) becomes version 1. Later, a field of `initial` that the newest version does not have yet (it was
 * stored before the field existed) is added as a new version; fields it has are the operator's and stay.
 */
export async function seedBusinessConfig(db: Database, initial: Partial<BusinessConfig> = {}) {
  const row = await db.selectFrom('config_versions').select('value').orderBy('id', 'desc').limit(1).executeTakeFirst()
  if (!row) {
    await setBusinessConfig(db, { ...DEFAULT_BUSINESS_CONFIG, ...initial }, 'seed')
    return
  }
  // Every stored version is checked now, so that a broken one stops the start with its id: the history, the rate
  // history and a later rollback read them all.
  for (const version of await db.selectFrom('config_versions').select(['id', 'value']).execute())
    storedVersion(version.id, version.value)
  const stored = row.value as Partial<BusinessConfig>
  const missing = Object.fromEntries(Object.entries(initial).filter(([key]) => !(key in stored)))
  if (Object.keys(missing).length > 0) await setBusinessConfig(db, { ...withDefaults(stored), ...missing }, 'seed')
}
