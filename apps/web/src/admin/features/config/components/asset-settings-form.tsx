import { adminApi } from '@solpledge/contract/admin'
import type { AdminAsset, AssetSettings } from '@solpledge/contract/client'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Panel, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { formatAssetUnits } from '@/admin/lib/units.ts'
import { Modal } from '@/components/modal.tsx'
import { toast } from '@/lib/toast.ts'
import { useSaveAsset } from '../api/config.ts'
import {
  ASSET_AMOUNTS,
  ASSET_FLAGS,
  ASSET_THRESHOLDS,
  type AssetDraft,
  assetChanges,
  assetDraft,
  readAssetDraft,
} from '../utils/asset-settings.ts'
import type { Change, FieldError } from '../utils/draft.ts'
import { useFieldLabels } from '../utils/labels.ts'
import { EffectNote } from './business-form.tsx'

const AMOUNT_FIELDS = new Set<string>([...ASSET_AMOUNTS, ...ASSET_THRESHOLDS])

/**
 * An asset's operator settings (docs/admin.md#asset-settings): recharge allowed, withdrawals on, the withdrawal minimum
 * and fee, and the review thresholds (empty: none), typed in the asset's units and saved as a new version against the
 * one loaded, after the same review of what changes as the business configuration.
 */
export function AssetSettingsForm({ asset }: { asset: AdminAsset }) {
  const { t } = useTranslation('admin')
  const label = useFieldLabels()
  const canSave = useAllowed(adminApi.adminAssetSave)
  const [draft, setDraft] = useState(() => assetDraft(asset))
  const [errors, setErrors] = useState<Partial<Record<string, FieldError>>>({})
  const [pending, setPending] = useState<{ value: AssetSettings; changes: Change[]; raises: boolean } | null>(null)
  // A proposal or a scheduled change leaves the settings in force as they are: the form shows them again.
  const save = useSaveAsset(() => {
    setErrors({})
    setPending(null)
    setDraft(assetDraft(asset))
  })
  const disabled = !canSave || save.isPending

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const read = readAssetDraft(draft, asset.decimals)
    if (!read.ok) return setErrors(read.errors)
    const { changes, raises } = assetChanges(asset, read.value)
    if (changes.length === 0) return toast.error(t('config.noChanges'))
    setPending({ value: read.value, changes, raises })
  }
  const set = <K extends keyof AssetDraft>(key: K, value: AssetDraft[K]) => setDraft({ ...draft, [key]: value })

  return (
    <Panel title={asset.symbol} testId={`admin-asset-${asset.coin}`}>
      <p className="muted-note">
        {t('config.version', { id: asset.version, by: asset.updated_by })} <Time iso={asset.updated_at} />
      </p>
      <form className="admin-form" onSubmit={submit} noValidate>
        {ASSET_FLAGS.map((flag) => (
          <label key={flag} className="admin-check">
            <input
              type="checkbox"
              data-testid={`asset-${asset.coin}-${flag}`}
              checked={draft[flag]}
              disabled={disabled}
              onChange={(event) => set(flag, event.target.checked)}
            />
            {t(`config.asset.${flag}`)}
          </label>
        ))}
        <div className="admin-fields">
          {[...ASSET_AMOUNTS, ...ASSET_THRESHOLDS].map((field) => (
            <label key={field} className="admin-field">
              <span>{t(`config.asset.${field}`)}</span>
              <span className="admin-unit-input">
                <input
                  type="text"
                  inputMode="decimal"
                  data-testid={`asset-${asset.coin}-${field}`}
                  value={draft[field]}
                  placeholder={ASSET_THRESHOLDS.includes(field as never) ? t('config.asset.none') : undefined}
                  disabled={disabled}
                  aria-invalid={errors[field] !== undefined}
                  onChange={(event) => set(field, event.target.value)}
                />
                <span className="muted-note">{asset.symbol}</span>
              </span>
              {errors[field] && <span className="admin-error">{label.error(errors[field])}</span>}
            </label>
          ))}
        </div>
        <p className="muted-note">{t('config.asset.thresholdsNote')}</p>
        <div className="admin-actions">
          <button
            type="submit"
            className="admin-button admin-primary"
            data-testid={`asset-${asset.coin}-save`}
            disabled={disabled}
          >
            {t('config.save')}
          </button>
        </div>
      </form>
      <Modal
        open={pending !== null}
        title={t('config.asset.confirmTitle')}
        onClose={save.isPending ? undefined : () => setPending(null)}
        testId={`asset-${asset.coin}-confirm`}
      >
        {pending && (
          <div className="admin-form">
            <AssetChangeList asset={asset} changes={pending.changes} />
            <EffectNote raises={pending.raises} />
            <button
              type="button"
              className="admin-button admin-primary"
              data-testid={`asset-${asset.coin}-confirm-save`}
              disabled={save.isPending}
              onClick={() => save.mutate({ coin: asset.coin, base_version: asset.version, ...pending.value })}
            >
              {t('config.save')}
            </button>
          </div>
        )}
      </Modal>
    </Panel>
  )
}

/** Changes of an asset's settings for people: each field before → after, amounts in the asset's units with its symbol. */
export function AssetChangeList({
  asset,
  changes,
}: {
  asset: Pick<AdminAsset, 'decimals' | 'symbol'>
  changes: Change[]
}) {
  const { t } = useTranslation('admin')
  const label = useFieldLabels()
  const shown = (field: string, value: unknown) => {
    if (value === null || value === undefined) return t(AMOUNT_FIELDS.has(field) ? 'config.asset.none' : 'changes.none')
    if (typeof value === 'boolean') return value ? t('operations.yes') : t('operations.no')
    return AMOUNT_FIELDS.has(field) ? formatAssetUnits(String(value), asset.decimals, asset.symbol) : String(value)
  }
  return (
    <ul className="admin-changes" data-testid="admin-changes">
      {changes.map((change) => (
        <li key={change.path} data-testid="admin-change" data-path={change.path}>
          <span className="muted-note">{label.ofAssetField(change.path)}</span> {shown(change.path, change.before)} →{' '}
          <strong>{shown(change.path, change.after)}</strong>
        </li>
      ))}
    </ul>
  )
}
