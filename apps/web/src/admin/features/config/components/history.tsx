import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Mono, PagedList, Panel, Time } from '@/admin/components/ui.tsx'
import { findAdminAsset, useAdminAssets } from '@/admin/lib/assets.ts'
import { useAssetHistory, useConfigHistory } from '../api/config.ts'
import { AssetChangeList } from './asset-settings-form.tsx'
import { ChangeList, type Units } from './business-form.tsx'

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
  const assets = useAdminAssets()
  const [coin, setCoin] = useState('')
  const { query, items } = useAssetHistory(coin)
  const assetOf = (code: string) => ({ decimals: findAdminAsset(assets.data, code)?.decimals ?? 0, symbol: code })
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
              <AssetChangeList asset={assetOf(version.coin)} changes={version.changes} />
            </li>
          ))}
        </ol>
      </PagedList>
    </Panel>
  )
}
