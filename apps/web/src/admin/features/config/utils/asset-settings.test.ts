import type { AdminAsset } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import { assetChanges, assetDraft, readAssetDraft } from './asset-settings.ts'

// The API speaks the asset's units ('10' is 10 USDT), never base units.
const usdt: AdminAsset = {
  coin: 'USDT',
  symbol: 'USDT',
  decimals: 6,
  mint: null,
  is_user_recharge: true,
  withdraw_enabled: true,
  min_withdraw: '10',
  withdraw_fee: '1',
  review_threshold: '1000',
  dual_review_threshold: null,
  version: '3',
  updated_by: 'seed',
  updated_at: '2026-01-01T00:00:00.000Z',
}

describe("an asset's settings form", () => {
  it('shows amounts in the asset’s units and no threshold as an empty field, and reads them back', () => {
    const draft = assetDraft(usdt)
    expect(draft).toMatchObject({
      min_withdraw: '10',
      withdraw_fee: '1',
      review_threshold: '1000',
      dual_review_threshold: '',
    })
    expect(readAssetDraft({ ...draft, min_withdraw: '10.50' }, 6)).toEqual({
      ok: true,
      value: {
        is_user_recharge: true,
        withdraw_enabled: true,
        min_withdraw: '10.5',
        withdraw_fee: '1',
        review_threshold: '1000',
        dual_review_threshold: null,
      },
    })
  })

  it('sets a threshold from a typed decimal and refuses what cannot be read', () => {
    const draft = { ...assetDraft(usdt), dual_review_threshold: '5000.5', withdraw_fee: '', min_withdraw: '0.0000001' }
    expect(readAssetDraft(draft, 6)).toEqual({
      ok: false,
      errors: { withdraw_fee: { key: 'empty' }, min_withdraw: { key: 'decimals', params: { decimals: 6 } } },
    })
    // Beyond the server's bounds: refused as typed, naming the bound.
    expect(readAssetDraft({ ...draft, withdraw_fee: '0', min_withdraw: '1000000.000001' }, 6)).toEqual({
      ok: false,
      errors: { min_withdraw: { key: 'maximum', params: { limit: '1000000' } } },
    })
    const fixed = readAssetDraft({ ...draft, withdraw_fee: '0', min_withdraw: '2' }, 6)
    expect(fixed).toMatchObject({ ok: true, value: { dual_review_threshold: '5000.5', withdraw_fee: '0' } })
  })

  it('previews what a save changes, and whether it raises payouts (a lower minimum or fee, a switch opened)', () => {
    const read = (changes: Partial<typeof usdt>) => {
      const value = readAssetDraft(assetDraft({ ...usdt, ...changes }), 6)
      if (!value.ok) throw new Error('unreadable')
      return assetChanges(usdt, value.value)
    }
    expect(read({ min_withdraw: '10.000' })).toEqual({ changes: [], raises: false })
    expect(read({ min_withdraw: '25', review_threshold: '500' })).toEqual({
      changes: [
        { path: 'min_withdraw', before: '10', after: '25' },
        { path: 'review_threshold', before: '1000', after: '500' },
      ],
      raises: false,
    })
    expect(read({ withdraw_fee: '0.5' }).raises).toBe(true)
    expect(read({ min_withdraw: '9.99' }).raises).toBe(true)
    expect(assetChanges({ ...usdt, withdraw_enabled: false }, { ...usdt }).raises).toBe(true)
  })
})
