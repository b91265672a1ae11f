import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Mono, PagedList, Panel, Time } from '@/admin/components/ui.tsx'
import { useAdminAssets } from '@/admin/lib/assets.ts'
import { formatUnits } from '@/admin/lib/units.ts'
import { useAssetHistory, useConfigHistory } from '../api/config.ts'
import { ASSET_AMOUNTS, ASSET_THRESHOLDS } from '../utils/asset-settings.ts'
import { useFieldLabels } from '../utils/labels.ts'
import { ChangeList, type Units } from './business-form.tsx'

const AMOUNT_FIELDS = new Set<string>([...ASSET_AMOUNTS, ...ASSET_THRESHOLDS])

/** The business configuration's versions, newest first: who saved each, when, and what it changed. */
export function ConfigHistory({ units }: { units: Units }) {
  const { t } = useTranslation('admin')
  const { query, items } = useConfigHistory()
  return (
    <Panel title={t('config.history')} testId="admin-config-history">
      <PagedList query={query} count={items.length} moreTestId="admin-config-history-more">
        <ol className="admin-versions">
          {items.map((version) => (
            <li key={version.id} className="admin-version" data-testid="admin-config-version-row" data-id={version.id}>
              <p className="muted-note">
                #{version.id} · <Mono text={version.changed_by} full testId="admin-version-by" /> ·{' '}
                <Time iso={version.created_at} />
              </p>
              {version.changes.length === 0 ? (
                <p className="muted-note">{t('config.firstVersion')}</p>
              ) : (
                <ChangeList changes={version.changes} units={units} />
              )}
            </li>
          ))}
        </ol>
      </PagedList>
    </Panel>
  )
}

/** The assets' settings versions, newest first, optionally of one asset. */
export function AssetHistory() {
  const { t } = useTranslation('admin')
  const label = useFieldLabels()
  const assets = useAdminAssets()
  const [coin, setCoin] = useState('')
  const { query, items } = useAssetHistory(coin)
  const decimals = (code: string) => assets.data?.find((asset) => asset.coin === code)?.decimals ?? 0
  const shown = (code: string, field: string, value: unknown) => {
    if (AMOUNT_FIELDS.has(field))
      return value === null || value === undefined
        ? t('config.asset.none')
        : formatUnits(String(value), decimals(code), code)
    if (typeof value === 'boolean') return value ? t('operations.yes') : t('operations.no')
    return value === null || value === undefined ? '—' : String(value)
  }
  return (
    <Panel
      title={t('config.assetHistory')}
      testId="admin-asset-history"
      actions={
        <select value={coin} onChange={(event) => setCoin(event.target.value)} aria-label={t('withdrawals.coin')}>
          <option value="">{t('all')}</option>
          {assets.data?.map((asset) => (
            <option key={asset.coin}>{asset.coin}</option>
          ))}
        </select>
      }
    >
      <PagedList query={query} count={items.length} moreTestId="admin-asset-history-more">
        <ol className="admin-versions">
          {items.map((version) => (
            <li key={version.id} className="admin-version">
              <p className="muted-note">
                {version.coin} #{version.id} · <Mono text={version.changed_by} full /> ·{' '}
                <Time iso={version.created_at} />
              </p>
              <ul className="admin-changes">
                {version.changes.map((change) => (
                  <li key={change.path}>
                    <span className="muted-note">{label.ofAssetField(change.path)}</span>{' '}
                    {shown(version.coin, change.path, change.before)} →{' '}
                    <strong>{shown(version.coin, change.path, change.after)}</strong>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      </PagedList>
    </Panel>
  )
}
