import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AdminPage, ListState } from '@/admin/components/ui.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { useBusinessConfig, useConfigUnits } from '../api/config.ts'
import { AssetSettingsForm } from './asset-settings-form.tsx'
import { BusinessForm } from './business-form.tsx'
import { Changes } from './changes.tsx'
import { AssetHistory, ConfigHistory } from './history.tsx'
import { Operators } from './operators.tsx'

const TABS = ['business', 'assets', 'history', 'operators', 'changes'] as const
type Tab = (typeof TABS)[number]

/**
 * Configuration: the business constants, the assets' withdrawal and review settings, their version history with who
 * changed what and when, the operator allow-list, and the changes waiting for a second admin
 * (docs/admin.md#configuration).
 */
export function ConfigScreen() {
  const { t } = useTranslation('admin')
  const [tab, setTab] = useState<Tab>('business')
  const config = useBusinessConfig()
  const { assets, units } = useConfigUnits()

  return (
    <AdminPage title={t('sections.config')}>
      <Tabs<Tab>
        label={t('sections.config')}
        testId="admin-config-tab"
        value={tab}
        onChange={setTab}
        options={TABS.map((value) => ({ value, label: t(`config.tabs.${value}`) }))}
      />
      {tab === 'business' &&
        (config.data && units ? (
          // A new version (saved here or elsewhere) starts a fresh form.
          <BusinessForm key={config.data.id} version={config.data} units={units} />
        ) : (
          <ListState query={config.isError ? config : assets} empty={false} />
        ))}
      {tab === 'assets' &&
        (assets.data ? (
          <div className="admin-grid">
            {assets.data.map((asset) => (
              <AssetSettingsForm key={`${asset.coin}-${asset.version}`} asset={asset} />
            ))}
          </div>
        ) : (
          <ListState query={assets} empty={false} />
        ))}
      {tab === 'history' && (
        <>
          {units && <ConfigHistory units={units} />}
          <AssetHistory />
        </>
      )}
      {tab === 'operators' && <Operators />}
      {tab === 'changes' && <Changes />}
    </AdminPage>
  )
}
