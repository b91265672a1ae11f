import { ASSET_SETTING_LIMITS } from '@solpledge/contract'
import {
  type AdminAsset,
  type AssetSettings,
  economicEffect,
  economicItems,
  formatAmount,
  parseAmount,
} from '@solpledge/contract/client'
import type { Change, FieldError } from './draft.ts'

/** The amounts of an asset's settings; the thresholds may be empty, meaning none. */
export const ASSET_AMOUNTS = ['min_withdraw', 'withdraw_fee'] as const
export const ASSET_THRESHOLDS = ['review_threshold', 'dual_review_threshold'] as const
export const ASSET_FLAGS = ['is_user_recharge', 'withdraw_enabled'] as const
const AMOUNT_FIELDS = [...ASSET_AMOUNTS, ...ASSET_THRESHOLDS] as const
const FIELDS = [...ASSET_FLAGS, ...AMOUNT_FIELDS] as const

type AmountField = (typeof AMOUNT_FIELDS)[number]
export type AssetDraft = Record<AmountField, string> & Record<(typeof ASSET_FLAGS)[number], boolean>

/** An asset's settings as the form shows them: the API's amounts are already in the asset's units; '' for none. */
export function assetDraft(asset: AdminAsset): AssetDraft {
  return {
    is_user_recharge: asset.is_user_recharge,
    withdraw_enabled: asset.withdraw_enabled,
    min_withdraw: asset.min_withdraw,
    withdraw_fee: asset.withdraw_fee,
    review_threshold: asset.review_threshold ?? '',
    dual_review_threshold: asset.dual_review_threshold ?? '',
  }
}

/** The settings as the API takes them (the asset's units, written plainly: '10.50' → '10.5'), or the errors by field. */
export function readAssetDraft(
  draft: AssetDraft,
  decimals: number,
): { ok: true; value: AssetSettings } | { ok: false; errors: Partial<Record<AmountField, FieldError>> } {
  const errors: Partial<Record<AmountField, FieldError>> = {}
  const read = (field: AmountField, optional: boolean) => {
    if (optional && draft[field].trim() === '') return null
    const parsed = parseAmount(draft[field], decimals)
    if (!parsed.ok) {
      errors[field] = parsed.error === 'decimals' ? { key: 'decimals', params: { decimals } } : { key: parsed.error }
      return null
    }
    // The server's bounds (whole tokens), checked as typed.
    const limit = ASSET_SETTING_LIMITS[field]
    if (parsed.value <= limit * 10n ** BigInt(decimals)) return formatAmount(parsed.value, decimals)
    errors[field] = { key: 'maximum', params: { limit: limit.toString() } }
    return null
  }
  const value: AssetSettings = {
    is_user_recharge: draft.is_user_recharge,
    withdraw_enabled: draft.withdraw_enabled,
    min_withdraw: read('min_withdraw', false) ?? '0',
    withdraw_fee: read('withdraw_fee', false) ?? '0',
    review_threshold: read('review_threshold', true),
    dual_review_threshold: read('dual_review_threshold', true),
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value }
}

/** Settings in base units, as the server compares them. */
function inBaseUnits(settings: AssetSettings, decimals: number): Record<string, string | boolean | null> {
  const base = (units: string | null) => {
    if (units === null) return null
    const parsed = parseAmount(units, decimals)
    return parsed.ok ? parsed.value.toString() : units
  }
  return Object.fromEntries(
    FIELDS.map((field) => [field, typeof settings[field] === 'boolean' ? settings[field] : base(settings[field])]),
  )
}

/**
 * What saving `value` over the asset's settings changes (each field before → after, in the asset's units), and
 * whether it raises what the platform pays (a lower minimum or fee, top-ups or withdrawals opened: a second admin once
 * two exist, and the notice period; docs/economics.md).
 */
export function assetChanges(asset: AdminAsset, value: AssetSettings): { changes: Change[]; raises: boolean } {
  const before = inBaseUnits(asset, asset.decimals)
  const after = inBaseUnits(value, asset.decimals)
  const changes = FIELDS.filter((field) => before[field] !== after[field]).map((field) => ({
    path: field,
    before: asset[field],
    after: value[field],
  }))
  return { changes, raises: economicEffect(economicItems(before, after, 'asset')).raises.length > 0 }
}
