// Configuration in the operator console: the business configuration (config_versions) and each asset's settings
// (assets + asset_versions), both versioned with who and when, both in force from the next request. A save names the
// version its form was loaded from and is refused when someone saved meanwhile, so no change is silently overwritten.
import {
  type AdminAsset,
  ASSET_SETTING_LIMITS,
  type AssetSettings,
  type AssetVersion,
  type BusinessConfig,
  Code,
  type ConfigVersion,
} from '@solpledge/contract'
import { type Selectable, sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { AssetsTable } from '../../db/schema.ts'
import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import type { Commit } from '../../lib/commit.ts'
import { diff } from '../../lib/diff.ts'
import { pageOf } from '../../lib/paging.ts'
import { setBusinessConfig, withDefaults } from '../config/index.ts'
import { audit } from './audit.ts'
import type { ChangeKind } from './changes.ts'
import { weakensAsset } from './four-eyes.ts'
import type { AdminCaller } from './session.ts'

/** Advisory lock key of configuration saves ('cfg' in ASCII): one save at a time decides which version is newest. */
const CONFIG_LOCK = 0x636667

type VersionRow = { id: string; value: unknown; changed_by: string; created_at: Date }

function presentVersion(row: VersionRow, previous: VersionRow | undefined): ConfigVersion {
  const value = withDefaults(row.value)
  return {
    id: row.id,
    changed_by: row.changed_by,
    created_at: row.created_at.toISOString(),
    value,
    changes: previous ? diff(withDefaults(previous.value), value) : [],
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

/** Stores a new configuration version made from `base_version`; refused when another save came first. */
export async function saveConfig(
  commit: Commit<ConfigVersion>,
  caller: AdminCaller,
  input: { base_version: string; value: BusinessConfig },
): Promise<ConfigVersion> {
  return commit(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CONFIG_LOCK})`.execute(trx)
    const [latest] = await versions(trx).limit(1).execute()
    if (!latest || latest.id !== input.base_version) throw refuse('admin.staleVersion', { version: latest?.id ?? '0' })
    const id = await setBusinessConfig(trx, input.value, caller.address)
    await audit(trx, caller, 'config.save', `config:${id}`, {
      base_version: latest.id,
      changes: diff(withDefaults(latest.value), input.value),
    })
    return currentConfig(trx, id)
  })
}

type AssetRow = Selectable<AssetsTable>

const settingsOf = (row: AssetRow): AssetSettings => ({
  is_user_recharge: row.is_user_recharge,
  withdraw_enabled: row.withdraw_enabled,
  min_withdraw: row.min_atm_money,
  withdraw_fee: row.withdraw_fee,
  review_threshold: row.review_threshold,
  dual_review_threshold: row.dual_review_threshold,
})

const presentAsset = (row: AssetRow): AdminAsset => ({
  coin: row.code,
  symbol: row.symbol,
  decimals: row.decimals,
  mint: row.mint,
  ...settingsOf(row),
  version: row.version,
  updated_by: row.updated_by,
  updated_at: row.updated_at.toISOString(),
})

export async function adminAssets(db: Database): Promise<{ list: AdminAsset[] }> {
  const rows = await db.selectFrom('assets').selectAll().orderBy('sort').orderBy('code').execute()
  return { list: rows.map(presentAsset) }
}

/** Why asset settings cannot be used (a translated refusal); null when they can. */
export function assetSettingsProblem(s: AssetSettings, asset: { decimals: number; symbol: string }): AppError | null {
  const unit = 10n ** BigInt(asset.decimals)
  for (const [field, max] of Object.entries(ASSET_SETTING_LIMITS)) {
    const value = s[field as keyof typeof ASSET_SETTING_LIMITS]
    if (value !== null && BigInt(value) > max * unit)
      return invalid('admin.tooLarge', { field, max: `${max} ${asset.symbol}` })
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
type AssetState = AssetSettings & { version: string }

const pickSettings = ({ coin: _c, base_version: _b, ...settings }: AssetSaveInput): AssetSettings => settings

/**
 * A new version of an asset's settings made from `base_version` (refused when another save came first). Once two
 * admins exist, raising or clearing a review threshold waits for a second admin (changes.ts).
 */
export const assetSave: ChangeKind<AssetSaveInput, AssetState> = {
  kind: 'asset.save',
  target: (input) => `asset:${input.coin}`,
  async state(trx, _caller, input, proposing) {
    const row = await trx.selectFrom('assets').selectAll().where('code', '=', input.coin).forUpdate().executeTakeFirst()
    if (!row) throw new AppError(Code.INVALID, 'assets.unknownAsset')
    if (proposing) {
      const problem = assetSettingsProblem(pickSettings(input), row)
      if (problem) throw problem
      if (row.version !== input.base_version) throw refuse('admin.staleVersion', { version: row.version })
    }
    return { ...settingsOf(row), version: row.version }
  },
  weakens: ({ version: _v, ...before }, input) => weakensAsset(before, pickSettings(input)),
  view: ({ version: _v, ...before }, input) => ({ before, after: pickSettings(input) }),
  async apply(trx, caller, input, { version: current, ...before }, approval) {
    const settings = pickSettings(input)
    const version = (BigInt(current) + 1n).toString()
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

/** Changes of the assets' settings, newest first. */
export async function assetHistory(
  db: Database,
  query: { coin?: string | undefined; page: number; limit: number },
): Promise<{ list: AssetVersion[]; total: number; page: number; limit: number }> {
  const base = db
    .selectFrom('asset_versions')
    .$if(query.coin !== undefined, (qb) => qb.where('asset', '=', query.coin as string))
  const { rows, total } = await pageOf(base, query, (qb) => qb.selectAll().orderBy('id', 'desc'))
  return {
    list: rows.map((row) => ({
      id: row.version,
      coin: row.asset,
      changed_by: row.changed_by,
      created_at: row.created_at.toISOString(),
      value: row.value as AssetSettings,
      changes: diff(row.before, row.value),
    })),
    total,
    page: query.page,
    limit: query.limit,
  }
}
