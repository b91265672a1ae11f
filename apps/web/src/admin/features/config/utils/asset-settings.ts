import { ASSET_SETTING_LIMITS } from '@solpledge/contract'
import { type AdminAsset, type AssetSettings, formatAmount, parseAmount } from '@solpledge/contract/client'
import type { FieldError } from './draft.ts'

/** The amounts of an asset's settings; the thresholds may be empty, meaning none. */
export const ASSET_AMOUNTS = ['min_withdraw', 'withdraw_fee'] as const
export const ASSET_THRESHOLDS = ['review_threshold', 'dual_review_threshold'] as const
export const ASSET_FLAGS = ['is_user_recharge', 'withdraw_enabled'] as const

type AmountField = (typeof ASSET_AMOUNTS)[number] | (typeof ASSET_THRESHOLDS)[number]
export type AssetDraft = Record<AmountField, string> & Record<(typeof ASSET_FLAGS)[number], boolean>

/** An asset's settings as the form shows them: decimals of the asset, an empty text for no threshold. */
export function assetDraft(asset: AdminAsset): AssetDraft {
  const text = (units: string | null) => (units === null ? '' : formatAmount(units, asset.decimals))
  return {
    is_user_recharge: asset.is_user_recharge,
    withdraw_enabled: asset.withdraw_enabled,
    min_withdraw: text(asset.min_withdraw),
    withdraw_fee: text(asset.withdraw_fee),
    review_threshold: text(asset.review_threshold),
    dual_review_threshold: text(asset.dual_review_threshold),
  }
}

/** The settings in base units, or the errors by field. */
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
    if (parsed.value <= limit * 10n ** BigInt(decimals)) return parsed.value.toString()
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
