import { adminApi } from '@solpledge/contract/admin'
import type { AdminAsset } from '@solpledge/contract/client'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Panel, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { useSaveAsset } from '../api/config.ts'
import {
  ASSET_AMOUNTS,
  ASSET_FLAGS,
  ASSET_THRESHOLDS,
  type AssetDraft,
  assetDraft,
  readAssetDraft,
} from '../utils/asset-settings.ts'
import type { FieldError } from '../utils/draft.ts'
import { useFieldLabels } from '../utils/labels.ts'

/**
 * An asset's operator settings (issue 7): recharge allowed, withdrawals on, the withdrawal minimum and fee, and the
 * review thresholds (empty: none), saved as a new version against the one loaded.
 */
export function AssetSettingsForm({ asset }: { asset: AdminAsset }) {
  const { t } = useTranslation('admin')
  const label = useFieldLabels()
  const canSave = useAllowed(adminApi.adminAssetSave)
  const [draft, setDraft] = useState(() => assetDraft(asset))
  const [errors, setErrors] = useState<Partial<Record<string, FieldError>>>({})
  const save = useSaveAsset(() => setErrors({}))
  const disabled = !canSave || save.isPending

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const read = readAssetDraft(draft, asset.decimals)
    if (!read.ok) return setErrors(read.errors)
    save.mutate({ coin: asset.coin, base_version: asset.version, ...read.value })
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
    </Panel>
  )
}
