// What a change of the business configuration or of an asset's settings does to what the platform pays and takes
// (docs/economics.md): the product bounds every configuration must keep, and which changes raise payouts (they need a
// second admin once two exist, and take effect only after the notice period). Plain functions without any schema
// runtime: the server decides with them, the console previews with them, the app lists the notices with them.
import type { BusinessConfig } from './business-config.ts'
import type { MessageKey } from './messages/en.ts'
import { type AmountParam, amountParam, type MessageParams } from './messages/params.ts'

/** Which asset an amount of the configuration is counted in: USDT, or the platform's token ({product}). */
export type ConfigAsset = 'usdt' | 'product'

/**
 * An amount of the configuration (base units of `asset` in the API, decimals of it in the console) and, where there is
 * one, the plausible limit in whole tokens: beyond it a value is a typing mistake, not a decision.
 */
export interface ConfigAmount {
  asset: ConfigAsset
  max?: bigint
}

/**
 * The unit of every amount and rate of the business configuration, declared once, by field (the path without row
 * indices): an amount's asset and plausible limit, or 'bps' for a rate or multiple in basis points (10000 = 100 % =
 * ×1). business-config.ts annotates its schema's leaves from this table (`x-unit`) and a test holds the two together;
 * the server's limits and notices and the console's fields read it.
 */
export const CONFIG_UNITS: Readonly<Record<string, ConfigAmount | 'bps'>> = {
  'pledge.minUsdt': { asset: 'usdt', max: 1_000_000n },
  'pledge.periods.outputBps': 'bps',
  'pledge.periods.powerBps': 'bps',
  'nodeLevels.priceUsdt': { asset: 'usdt', max: 10_000_000n },
  'nodeLevels.powerBonusBps': 'bps',
  'finance.powerBps': 'bps',
  'finance.outputBps': 'bps',
  'referralRewards.rateBps': 'bps',
  nodePoolDaily: { asset: 'product', max: 100_000_000n },
  // USDT base units per whole token: a price in USDT.
  referencePrice: { asset: 'usdt', max: 1_000_000n },
  'valuation.bandBps': 'bps',
  'valuation.minQuoteVolume': { asset: 'usdt' },
  'referralGuard.minStakeUsdt': { asset: 'usdt', max: 1_000_000n },
  'settlementBreaker.averageMultipleBps': 'bps',
  'settlementBreaker.reserveShareBps': 'bps',
  'trade.tickSize': { asset: 'usdt', max: 1_000n },
  'trade.lotSize': { asset: 'product', max: 1_000_000n },
  'trade.minAmount': { asset: 'product', max: 1_000_000_000n },
  'trade.maxAmount': { asset: 'product', max: 1_000_000_000n },
  'trade.feeBps': 'bps',
}

const unitEntries = Object.entries(CONFIG_UNITS)

/** The amounts of the configuration by field and the asset they are counted in (from CONFIG_UNITS). */
export const CONFIG_AMOUNTS: Readonly<Record<string, ConfigAsset>> = Object.fromEntries(
  unitEntries.flatMap(([field, unit]) => (unit === 'bps' ? [] : [[field, unit.asset]])),
)

/** The amounts that have a plausible limit, by field (from CONFIG_UNITS). */
export const CONFIG_AMOUNT_LIMITS: Readonly<Record<string, Required<ConfigAmount>>> = Object.fromEntries(
  unitEntries.flatMap(([field, unit]) =>
    unit !== 'bps' && unit.max !== undefined ? [[field, { asset: unit.asset, max: unit.max }]] : [],
  ),
)

/** The rates and multiples of the configuration, in basis points (from CONFIG_UNITS). */
export const CONFIG_RATES: ReadonlySet<string> = new Set(
  unitEntries.flatMap(([field, unit]) => (unit === 'bps' ? [field] : [])),
)

/** A path's field: the path without its row indices ('finance[1].outputBps' → 'finance.outputBps'). */
export const fieldOf = (path: string) => path.replace(/\[\d+\]/g, '')

// ---------------------------------------------------------------------------------------------------------------------
// Product bounds
// ---------------------------------------------------------------------------------------------------------------------

/**
 * The product bounds (docs/economics.md, "Bounds"): beyond them a value is not a product but a mistake or an attack,
 * whoever approves it. Rates in basis points; amounts in whole tokens of their asset.
 */
export const ECONOMIC_BOUNDS = {
  /** A staking period returns at most ×3 of the stake over its whole term… */
  stakeOutputBps: 30_000,
  /** …and pays at most 3 % of the stake a day beyond the stake itself ((outputBps − 10000) / days). */
  stakeYieldPerDayBps: 300,
  /** Power multiples (staking periods, finance products) and node power bonuses: at most ×10. */
  powerBps: 100_000,
  /** A finance product pays at most 50 % of the deposit over its term… */
  financeOutputBps: 5_000,
  /** …and at most 0.3 % of it a day. */
  financeYieldPerDayBps: 30,
  /** Each referral level at most 20 % of the member's output, all levels together at most 30 %. */
  referralRateBps: 2_000,
  referralTotalBps: 3_000,
  /** The reference price: at most 10,000 USDT per token. */
  referencePriceUsdt: 10_000n,
  /** A node costs at least 1 USDT (a free node would share the pool for nothing). */
  nodePriceMinUsdt: 1n,
  /** The circuit breaker cannot be set off: a day may pay at most ×10 the trailing average and 50 % of the reserves. */
  breakerMultipleBps: 100_000,
  breakerReserveShareBps: 5_000,
} as const

/**
 * A refusal: a catalogue key and its parameters (the field and the bound; an amount is written in the message's
 * language).
 */
export interface BoundProblem {
  key: Extract<MessageKey, 'admin.tooLarge' | 'admin.tooSmall' | 'admin.dailyYieldTooHigh' | 'admin.referralTotal'>
  params: MessageParams
}

/** Basis points for people: 150 → '1.5 %'. */
export const bpsText = (bps: number | bigint) => `${decimalText(BigInt(bps), 2)} %`

/** Base units as a plain decimal ('1.5'), exactly (no floats); the app formats it for a language. */
function decimalText(units: bigint, decimals: number): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0')
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - decimals)}${fraction ? `.${fraction}` : ''}`
}

/**
 * The first value of `config` beyond the product bounds (ECONOMIC_BOUNDS), as a refusal naming the field and its
 * bound; null when there is none. `usdtDecimals`: USDT's, which the configuration's prices are counted in. The
 * schema's own bounds (types, counts) are checked before.
 */
export function economicBoundProblem(config: BusinessConfig, usdtDecimals: number): BoundProblem | null {
  const b = ECONOMIC_BOUNDS
  const tooLarge = (field: string, max: string | AmountParam): BoundProblem => ({
    key: 'admin.tooLarge',
    params: { field, max },
  })
  const perDay = (field: string, bps: number, days: number, max: number): BoundProblem | null =>
    // Compared exactly: bps / days > max ⇔ bps > max × days.
    bps > max * days
      ? { key: 'admin.dailyYieldTooHigh', params: { field, value: bpsText(Math.floor(bps / days)), max: bpsText(max) } }
      : null
  for (const [i, period] of config.pledge.periods.entries()) {
    const field = `pledge.periods[${i}]`
    if (period.outputBps > b.stakeOutputBps) return tooLarge(`${field}.outputBps`, bpsText(b.stakeOutputBps))
    const yieldProblem = perDay(field, Math.max(0, period.outputBps - 10_000), period.days, b.stakeYieldPerDayBps)
    if (yieldProblem) return yieldProblem
    if (period.powerBps > b.powerBps) return tooLarge(`${field}.powerBps`, bpsText(b.powerBps))
  }
  for (const [i, product] of config.finance.entries()) {
    const field = `finance[${i}]`
    if (product.outputBps > b.financeOutputBps) return tooLarge(`${field}.outputBps`, bpsText(b.financeOutputBps))
    const yieldProblem = perDay(field, product.outputBps, product.days, b.financeYieldPerDayBps)
    if (yieldProblem) return yieldProblem
    if (product.powerBps > b.powerBps) return tooLarge(`${field}.powerBps`, bpsText(b.powerBps))
  }
  const usdt = 10n ** BigInt(usdtDecimals)
  for (const [i, level] of config.nodeLevels.entries()) {
    if (level.powerBonusBps > b.powerBps) return tooLarge(`nodeLevels[${i}].powerBonusBps`, bpsText(b.powerBps))
    if (BigInt(level.priceUsdt) < b.nodePriceMinUsdt * usdt)
      return {
        key: 'admin.tooSmall',
        params: {
          field: `nodeLevels[${i}].priceUsdt`,
          min: amountParam(b.nodePriceMinUsdt * usdt, usdtDecimals, 'USDT'),
        },
      }
  }
  for (const [i, reward] of config.referralRewards.entries()) {
    if (reward.rateBps > b.referralRateBps) return tooLarge(`referralRewards[${i}].rateBps`, bpsText(b.referralRateBps))
  }
  const total = config.referralRewards.reduce((sum, r) => sum + r.rateBps, 0)
  if (total > b.referralTotalBps)
    return { key: 'admin.referralTotal', params: { total: bpsText(total), max: bpsText(b.referralTotalBps) } }
  if (BigInt(config.referencePrice) > b.referencePriceUsdt * usdt)
    return tooLarge('referencePrice', amountParam(b.referencePriceUsdt * usdt, usdtDecimals, 'USDT'))
  const breaker = config.settlementBreaker
  if (breaker.averageMultipleBps > b.breakerMultipleBps)
    return tooLarge('settlementBreaker.averageMultipleBps', bpsText(b.breakerMultipleBps))
  if (breaker.reserveShareBps > b.breakerReserveShareBps)
    return tooLarge('settlementBreaker.reserveShareBps', bpsText(b.breakerReserveShareBps))
  return null
}

// ---------------------------------------------------------------------------------------------------------------------
// What a change does
// ---------------------------------------------------------------------------------------------------------------------

/** A leaf value of the configuration or of an asset's settings: base units and flags as they are stored. */
export type EconomicValue = string | number | boolean

/**
 * One changed value, named as people read it: its field ('referralRewards.rateBps', 'asset.withdraw_fee'), the row it
 * belongs to (the referral level, the period's days, the node level's code, the fuel tier's number, the asset; null
 * for a single value) and both values (null: the row is added or removed).
 */
export interface EconomicItem {
  field: string
  row: string | null
  before: EconomicValue | null
  after: EconomicValue | null
}

/** The lists of the configuration whose rows are known by a key, not by their position. */
const LIST_KEYS: Readonly<Record<string, string>> = {
  'pledge.periods': 'days',
  nodeLevels: 'code',
  finance: 'days',
  referralRewards: 'level',
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The values that differ between two configurations (or two settings), rows matched by their key (a period by its
 * days, a node level by its code, a referral reward by its level; fuel tiers by position), in a stable order.
 */
export function economicItems(before: unknown, after: unknown, prefix = ''): EconomicItem[] {
  const items: EconomicItem[] = []
  const walk = (b: unknown, a: unknown, field: string, row: string | null) => {
    if (Array.isArray(b) || Array.isArray(a)) {
      const key = LIST_KEYS[field]
      const left = (Array.isArray(b) ? b : []) as unknown[]
      const right = (Array.isArray(a) ? a : []) as unknown[]
      const rowKey = (item: unknown, i: number) =>
        key !== undefined && isRecord(item) ? String(item[key]) : String(i + 1)
      const rows = [...new Set([...left.map(rowKey), ...right.map(rowKey)])]
      for (const name of rows) {
        const find = (list: unknown[]) => list.find((item, i) => rowKey(item, i) === name)
        walk(find(left), find(right), field, name)
      }
      return
    }
    if (isRecord(b) || isRecord(a)) {
      const left = isRecord(b) ? b : {}
      const right = isRecord(a) ? a : {}
      const key = LIST_KEYS[field]
      for (const name of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort()) {
        // A keyed row's key is its name, not one of its values.
        if (name === key) continue
        walk(left[name], right[name], field ? `${field}.${name}` : name, row)
      }
      return
    }
    const x = (b ?? null) as EconomicValue | null
    const y = (a ?? null) as EconomicValue | null
    if (x !== y) items.push({ field, row, before: x, after: y })
  }
  walk(before, after, prefix, null)
  return items
}

/** The direction in which a value raises what the platform pays or lowers what it takes. */
type Raising = 'up' | 'down' | 'on' | 'off'

/** Every value of the configuration and of the assets' settings whose change can raise payouts, and in which direction. */
const RAISING: Readonly<Record<string, Raising>> = {
  'pledge.periods.outputBps': 'up',
  'pledge.periods.powerBps': 'up',
  'nodeLevels.priceUsdt': 'down',
  'nodeLevels.supplyCap': 'up',
  'nodeLevels.powerBonusBps': 'up',
  'nodeLevels.dividendWeight': 'up',
  'nodeLevels.onePerUser': 'off',
  'finance.powerBps': 'up',
  'finance.outputBps': 'up',
  'referralRewards.rateBps': 'up',
  fuelTiers: 'down',
  nodePoolDaily: 'up',
  referencePrice: 'up',
  'valuation.windowSeconds': 'down',
  'valuation.bandBps': 'up',
  'valuation.minQuoteVolume': 'down',
  'trade.feeBps': 'down',
  'referralGuard.minStakeUsdt': 'down',
  'referralGuard.directPerLevel': 'off',
  'asset.min_withdraw': 'down',
  'asset.withdraw_fee': 'down',
  'asset.is_user_recharge': 'on',
  'asset.withdraw_enabled': 'on',
}

/** Values that guard payouts without being one: loosening them needs a second admin but no notice to users. */
const LOOSENING: Readonly<Record<string, Raising>> = {
  'settlementBreaker.averageMultipleBps': 'up',
  'settlementBreaker.reserveShareBps': 'up',
}

const order = (value: EconomicValue) => (typeof value === 'boolean' ? (value ? 1n : 0n) : BigInt(value))

/** Whether one item moves in `direction` (a row added counts as raising; a row removed never does). */
function moves(item: EconomicItem, direction: Raising | undefined): boolean {
  if (direction === undefined || item.after === null) return false
  if (item.before === null) return true
  const [x, y] = [order(item.before), order(item.after)]
  return direction === 'up' || direction === 'on' ? y > x : y < x
}

/**
 * What a change does to the economics: `raises`, the items that raise what the platform pays or lower what it takes
 * (a second admin once two exist, and the notice period); `loosens`, the items that loosen the settlement's circuit
 * breaker (a second admin). A change with neither only lowers payouts or changes nothing of them: one admin's decision.
 */
export function economicEffect(items: readonly EconomicItem[]): { raises: EconomicItem[]; loosens: EconomicItem[] } {
  return {
    raises: items.filter((item) => moves(item, RAISING[item.field])),
    loosens: items.filter((item) => moves(item, LOOSENING[item.field])),
  }
}
