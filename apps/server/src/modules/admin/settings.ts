// Configuration in the operator console: the business configuration (config_versions) and each asset's settings
// (assets + asset_versions), both versioned with who and when, both in force from the next request. A save names the
// version its form was loaded from and is refused when someone saved meanwhile, so no change is silently overwritten.
import {
  type AdminAsset,
  ASSET_SETTING_LIMITS,
  type AssetSettings,
  type AssetVersion,
  amountParam,
  type BusinessConfig,
  Code,
  type ConfigVersion,
  economicEffect,
  economicItems,
  formatAmount,
  parseAmount,
} from '@solpledge/contract'
import { type Selectable, sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { AssetsTable } from '../../db/schema.ts'
import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import { diff } from '../../lib/diff.ts'
import { pageOf } from '../../lib/paging.ts'
import { checkBusinessConfig, setBusinessConfig, storedVersion } from '../config/index.ts'
import { audit } from './audit.ts'
import type { ChangeKind } from './changes.ts'
import { weakensAsset } from './four-eyes.ts'

/** Advisory lock key of configuration saves ('cfg' in ASCII): one save at a time decides which version is newest. */
const CONFIG_LOCK = 0x636667

type VersionRow = { id: string; value: unknown; changed_by: string; created_at: Date }

function presentVersion(row: VersionRow, previous: VersionRow | undefined): ConfigVersion {
  const value = storedVersion(row.id, row.value)
  return {
    id: row.id,
    changed_by: row.changed_by,
    created_at: row.created_at.toISOString(),
    value,
    changes: previous ? diff(storedVersion(previous.id, previous.value), value) : [],
  }
}

const versions = (db: Database) =>
  db.selectFrom('config_versions').select(['id', 'value', 'changed_by', 'created_at']).orderBy('id', 'desc')

/** The configuration in force (or version `id`) with what its version changed. */
export async function currentConfig(db: Database, id?: string): Promise<ConfigVersion> {
  const [row, previous] = await versions(db)
    .$if(id !== undefined, (qb) => qb.where('id', '<=', id as string))
    .limit(2)
    .execute()
  if (!row) throw new Error('the business configuration has not been seeded')
  return presentVersion(row, previous)
}

/** Versions newest first, each with its changes against the one before. */
export async function configHistory(db: Database, query: { page: number; limit: number }) {
  // One row more than the page: the page's last version needs the one before it (none when it is the first).
  const [rows, count] = await Promise.all([
    versions(db)
      .limit(query.limit + 1)
      .offset((query.page - 1) * query.limit)
      .execute(),
    db.selectFrom('config_versions').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ])
  const list = rows.slice(0, query.limit).map((row, i) => presentVersion(row, rows[i + 1]))
  return { list, total: Number(count.n), page: query.page, limit: query.limit }
}

type ConfigState = { version: string; value: BusinessConfig }

/**
 * A new version of the business configuration made from `base_version` (refused when another save came first, or
 * beyond the product bounds). One that raises payouts waits for a second admin once two exist, and applies after the
 * notice period (changes.ts); the circuit breaker's loosening waits for a second admin too.
 */
export const configSave: ChangeKind<{ base_version: string; value: BusinessConfig }, ConfigState> = {
  kind: 'config.save',
  target: () => 'config',
  async state(trx, _caller, input, proposing) {
    // One save at a time decides which version is newest.
    await sql`select pg_advisory_xact_lock(${CONFIG_LOCK})`.execute(trx)
    const [latest] = await versions(trx).limit(1).execute()
    if (!latest) throw new Error('the business configuration has not been seeded')
    if (proposing) {
      if (latest.id !== input.base_version) throw refuse('admin.staleVersion', { version: latest.id })
      await checkBusinessConfig(trx, input.value)
    }
    return { version: latest.id, value: storedVersion(latest.id, latest.value) }
  },
  weakens: (state, input) => economicEffect(economicItems(state.value, input.value)).loosens.length > 0,
  raisesPayouts: (state, input) => economicEffect(economicItems(state.value, input.value)).raises.length > 0,
  view: (state, input) => ({ before: state.value, after: input.value }),
  async apply(trx, caller, input, state, approval) {
    const id = await setBusinessConfig(trx, input.value, caller.address)
    await audit(trx, caller, 'config.save', `config:${id}`, {
      base_version: state.version,
      changes: diff(state.value, input.value),
      ...approval,
    })
  },
}

type AssetRow = Selectable<AssetsTable>

/** An asset's settings as stored: amounts in base units (AssetSettings, the API's, has them in the asset's units). */
type StoredSettings = {
  is_user_recharge: boolean
  withdraw_enabled: boolean
  min_withdraw: string
  withdraw_fee: string
  review_threshold: string | null
  dual_review_threshold: string | null
}
const AMOUNT_SETTINGS = ['min_withdraw', 'withdraw_fee', 'review_threshold', 'dual_review_threshold'] as const

const settingsOf = (row: AssetRow): StoredSettings => ({
  is_user_recharge: row.is_user_recharge,
  withdraw_enabled: row.withdraw_enabled,
  min_withdraw: row.min_atm_money,
  withdraw_fee: row.withdraw_fee,
  review_threshold: row.review_threshold,
  dual_review_threshold: row.dual_review_threshold,
})

/** Stored settings in the asset's units, as the console shows and sends them ('10' for 10 USDT). */
function inUnits(s: StoredSettings, decimals: number): AssetSettings {
  const units = (value: string | null) => (value === null ? null : formatAmount(value, decimals))
  return {
    ...s,
    min_withdraw: formatAmount(s.min_withdraw, decimals),
    withdraw_fee: formatAmount(s.withdraw_fee, decimals),
    review_threshold: units(s.review_threshold),
    dual_review_threshold: units(s.dual_review_threshold),
  }
}

/** Typed settings in base units; more decimals than the asset has are refused, naming the field. */
function inBaseUnits(s: AssetSettings, asset: { decimals: number; code: string }): StoredSettings {
  const base = (field: (typeof AMOUNT_SETTINGS)[number], text: string) => {
    const parsed = parseAmount(text, asset.decimals)
    if (!parsed.ok) throw invalid('admin.amountDecimals', { field, coin: asset.code, decimals: asset.decimals })
    return parsed.value.toString()
  }
  const optional = (field: 'review_threshold' | 'dual_review_threshold') => {
    const value = s[field]
    return value === null ? null : base(field, value)
  }
  return {
    is_user_recharge: s.is_user_recharge,
    withdraw_enabled: s.withdraw_enabled,
    min_withdraw: base('min_withdraw', s.min_withdraw),
    withdraw_fee: base('withdraw_fee', s.withdraw_fee),
    review_threshold: optional('review_threshold'),
    dual_review_threshold: optional('dual_review_threshold'),
  }
}

const presentAsset = (row: AssetRow): AdminAsset => ({
  coin: row.code,
  symbol: row.symbol,
  decimals: row.decimals,
  mint: row.mint,
  ...inUnits(settingsOf(row), row.decimals),
  version: row.version,
  updated_by: row.updated_by,
  updated_at: row.updated_at.toISOString(),
})

export async function adminAssets(db: Database): Promise<{ list: AdminAsset[] }> {
  const rows = await db.selectFrom('assets').selectAll().orderBy('sort').orderBy('code').execute()
  return { list: rows.map(presentAsset) }
}

/** Why asset settings (base units) cannot be used (a translated refusal); null when they can. */
export function assetSettingsProblem(s: StoredSettings, asset: { decimals: number; symbol: string }): AppError | null {
  const unit = 10n ** BigInt(asset.decimals)
  for (const [field, max] of Object.entries(ASSET_SETTING_LIMITS)) {
    const value = s[field as keyof typeof ASSET_SETTING_LIMITS]
    if (value !== null && BigInt(value) > max * unit)
      return invalid('admin.tooLarge', { field, max: amountParam(max * unit, asset.decimals, asset.symbol) })
  }
  const fee = BigInt(s.withdraw_fee)
  if (fee > 0n && BigInt(s.min_withdraw) <= fee) return invalid('admin.feeNotBelowMinimum')
  if (s.dual_review_threshold !== null) {
    if (s.review_threshold === null)
      return invalid('admin.invalidConfig', { detail: 'dual_review_threshold needs a review_threshold' })
    if (BigInt(s.dual_review_threshold) < BigInt(s.review_threshold))
      return invalid('admin.invalidConfig', { detail: 'dual_review_threshold cannot be below review_threshold' })
  }
  return null
}

type AssetSaveInput = AssetSettings & { coin: string; base_version: string }
/** The asset's settings (base units) and version; the proposal's settings in base units once read. */
type AssetState = StoredSettings & { version: string; decimals: number }

const pickSettings = ({ coin: _c, base_version: _b, ...settings }: AssetSaveInput): AssetSettings => settings
const stored = ({ version: _v, decimals: _d, ...settings }: AssetState): StoredSettings => settings
/** The proposal in base units (the same conversion as at the proposal: it was accepted then). */
const proposal = (state: AssetState, input: AssetSaveInput) =>
  inBaseUnits(pickSettings(input), { decimals: state.decimals, code: input.coin })

/**
 * A new version of an asset's settings made from `base_version` (refused when another save came first). Once two
 * admins exist, raising or clearing a review threshold waits for a second admin; lowering the minimum or the fee and
 * opening top-ups or withdrawals raise payouts: a second admin, and the notice period (changes.ts).
 */
export const assetSave: ChangeKind<AssetSaveInput, AssetState> = {
  kind: 'asset.save',
  target: (input) => `asset:${input.coin}`,
  async state(trx, _caller, input, proposing) {
    const row = await trx.selectFrom('assets').selectAll().where('code', '=', input.coin).forUpdate().executeTakeFirst()
    if (!row) throw new AppError(Code.INVALID, 'assets.unknownAsset')
    if (proposing) {
      const problem = assetSettingsProblem(inBaseUnits(pickSettings(input), row), row)
      if (problem) throw problem
      if (row.version !== input.base_version) throw refuse('admin.staleVersion', { version: row.version })
    }
    return { ...settingsOf(row), version: row.version, decimals: row.decimals }
  },
  weakens: (state, input) => weakensAsset(stored(state), proposal(state, input)),
  raisesPayouts: (state, input) =>
    economicEffect(economicItems(stored(state), proposal(state, input), 'asset')).raises.length > 0,
  view: (state, input) => ({
    before: inUnits(stored(state), state.decimals),
    after: inUnits(proposal(state, input), state.decimals),
  }),
  async apply(trx, caller, input, state, approval) {
    const before = stored(state)
    const settings = proposal(state, input)
    const version = (BigInt(state.version) + 1n).toString()
    const updated = await trx
      .updateTable('assets')
      .set({
        is_user_recharge: settings.is_user_recharge,
        withdraw_enabled: settings.withdraw_enabled,
        min_atm_money: settings.min_withdraw,
        withdraw_fee: settings.withdraw_fee,
        review_threshold: settings.review_threshold,
        dual_review_threshold: settings.dual_review_threshold,
        version,
        updated_by: caller.address,
        updated_at: new Date(),
      })
      .where('code', '=', input.coin)
      .returningAll()
      .executeTakeFirstOrThrow()
    const after = settingsOf(updated)
    await trx
      .insertInto('asset_versions')
      .values({
        asset: input.coin,
        version,
        before: JSON.stringify(before),
        value: JSON.stringify(after),
        changed_by: caller.address,
      })
      .execute()
    await audit(trx, caller, 'asset.save', `asset:${input.coin}`, {
      version,
      changes: diff(before, after),
      ...approval,
    })
  },
}

/** Changes of the assets' settings, newest first, in the assets' units. */
export async function assetHistory(
  db: Database,
  query: { coin?: string | undefined; page: number; limit: number },
): Promise<{ list: AssetVersion[]; total: number; page: number; limit: number }> {
  const base = db
    .selectFrom('asset_versions')
    .innerJoin('assets', 'assets.code', 'asset_versions.asset')
    .$if(query.coin !== undefined, (qb) => qb.where('asset', '=', query.coin as string))
  const { rows, total } = await pageOf(base, query, (qb) =>
    qb.selectAll('asset_versions').select('assets.decimals').orderBy('asset_versions.id', 'desc'),
  )
  return {
    list: rows.map((row) => {
      const [before, value] = [row.before as StoredSettings, row.value as StoredSettings]
      return {
        id: row.version,
        coin: row.asset,
        changed_by: row.changed_by,
        created_at: row.created_at.toISOString(),
        value: inUnits(value, row.decimals),
        changes: diff(inUnits(before, row.decimals), inUnits(value, row.decimals)),
      }
    }),
    total,
    page: query.page,
    limit: query.limit,
  }
}
