import { adminApi } from '@solpledge/contract/admin'
import type { AdminCampaign, CampaignReward } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/admin/components/confirm-dialog.tsx'
import { ExportButton, Mono, PagedTable, Panel, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { formatUnits } from '@/admin/lib/units.ts'
import { useAdminCampaigns, useCampaignQualifiers, useGrantRewards } from '../api/content.ts'
import { CampaignEditor } from './campaign-editor.tsx'

/** The English title, else the first. */
const titleOf = (campaign: AdminCampaign) =>
  (campaign.translations.find((item) => item.lang === 'en') ?? campaign.translations[0])?.title ?? ''

/** Campaigns (docs/admin.md#campaigns): the list, the editor, and one campaign's qualifiers with export and grant. */
export function Campaigns() {
  const { t } = useTranslation('admin')
  const { query, items } = useAdminCampaigns()
  const canEdit = useAllowed(adminApi.adminCampaignSave)
  const [editing, setEditing] = useState<{ item: AdminCampaign | null } | null>(null)
  const [shownId, setShownId] = useState<string | null>(null)
  const shown = items.find((item) => item.id === shownId)
  return (
    <>
      <div className="admin-actions">
        <button
          type="button"
          className="admin-button admin-primary"
          data-testid="admin-campaign-new"
          disabled={!canEdit}
          onClick={() => setEditing({ item: null })}
        >
          {t('campaigns.new')}
        </button>
      </div>
      <PagedTable
        testId="admin-campaigns"
        query={query}
        count={items.length}
        head={
          <>
            <th />
            <th>{t('content.titleColumn')}</th>
            <th>{t('campaigns.startsAt')}</th>
            <th>{t('campaigns.endsAt')}</th>
            <th>{t('content.state')}</th>
          </>
        }
      >
        {items.map((campaign) => (
          <tr key={campaign.id} data-testid="admin-campaign-row" data-status={campaign.status}>
            <td>
              <div className="admin-actions">
                <button type="button" className="admin-button" onClick={() => setEditing({ item: campaign })}>
                  {canEdit && campaign.status === 'upcoming' ? t('content.edit') : t('content.view')}
                </button>
                <button
                  type="button"
                  className="admin-button"
                  data-testid="admin-campaign-qualifiers"
                  aria-pressed={campaign.id === shownId}
                  onClick={() => setShownId(campaign.id)}
                >
                  {t('campaigns.qualifiers')}
                </button>
              </div>
            </td>
            <td className="admin-wrap">{titleOf(campaign)}</td>
            <td>
              <Time iso={campaign.starts_at} />
            </td>
            <td>
              <Time iso={campaign.ends_at} />
            </td>
            <td>
              <span className={campaign.status === 'running' ? 'badge badge-ok' : 'badge'}>
                {t(`campaigns.statuses.${campaign.status}`)}
              </span>
            </td>
          </tr>
        ))}
      </PagedTable>
      {shown && <Qualifiers campaign={shown} />}
      {editing && <CampaignEditor campaign={editing.item} onClose={() => setEditing(null)} />}
    </>
  )
}

/** A tier's reward in the console's words. */
function RewardText({ reward }: { reward: CampaignReward }) {
  const { t } = useTranslation('admin')
  if (reward.kind === 'node') return <>{t('campaigns.rewardNode', { level: reward.level })}</>
  if (reward.kind === 'trip') return <>{t('campaigns.rewardTrip', { places: reward.places })}</>
  return <>{reward.text}</>
}

/** Who reaches a tier (live while running, the fixed result once ended), the file of them, and Grant rewards. */
function Qualifiers({ campaign }: { campaign: AdminCampaign }) {
  const { t } = useTranslation('admin')
  const { query, items } = useCampaignQualifiers(campaign.id)
  const canGrant = useAllowed(adminApi.adminCampaignGrant)
  const [confirming, setConfirming] = useState(false)
  const grant = useGrantRewards(() => setConfirming(false))
  const nodeTiers = campaign.tiers.filter((tier) => tier.reward.kind === 'node').length
  return (
    <Panel
      title={t('campaigns.qualifiersOf', { title: titleOf(campaign) })}
      testId="admin-campaign-qualifiers-panel"
      actions={
        <div className="admin-actions">
          <ExportButton
            route={adminApi.adminCampaignQualifiersCsv}
            body={{ id: campaign.id }}
            testId="admin-qualifiers-export"
          />
          {nodeTiers > 0 && (
            <button
              type="button"
              className="admin-button admin-primary"
              data-testid="admin-campaign-grant"
              disabled={!canGrant || campaign.status !== 'ended' || grant.isPending}
              onClick={() => setConfirming(true)}
            >
              {t('campaigns.grant')}
            </button>
          )}
        </div>
      }
    >
      <p className="muted-note">{campaign.status === 'ended' ? t('campaigns.resultNote') : t('campaigns.liveNote')}</p>
      <PagedTable
        testId="admin-qualifiers"
        query={query}
        count={items.length}
        head={
          <>
            <th>{t('campaigns.address')}</th>
            <th>{t('campaigns.tierColumn')}</th>
            <th>{t('campaigns.directColumn')}</th>
            <th>{t('campaigns.fuelColumn')}</th>
            <th>{t('campaigns.reward')}</th>
            <th>{t('campaigns.rewardState')}</th>
          </>
        }
      >
        {items.map((q) => (
          <tr key={q.id} data-testid="admin-qualifier-row" data-address={q.address}>
            <td>
              <Mono text={q.address} />
            </td>
            <td>{q.tier}</td>
            <td>{q.direct_count}</td>
            <td>{formatUnits(q.fuel, campaign.decimals, 'USDT')}</td>
            <td>
              <RewardText reward={q.reward} />
            </td>
            <td>{q.adjustment_status ? t(`campaigns.adjustment.${q.adjustment_status}`) : '—'}</td>
          </tr>
        ))}
      </PagedTable>
      <ConfirmDialog
        open={confirming}
        title={t('campaigns.grant')}
        confirm={t('campaigns.grantConfirm')}
        pending={grant.isPending}
        onConfirm={() => grant.mutate({ id: campaign.id })}
        onClose={() => setConfirming(false)}
      >
        <p>{t('campaigns.grantText', { title: titleOf(campaign) })}</p>
      </ConfirmDialog>
    </Panel>
  )
}
