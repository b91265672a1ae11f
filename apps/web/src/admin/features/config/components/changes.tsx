import type { AdminAsset, AdminChange } from '@solpledge/contract'
import { adminApi } from '@solpledge/contract/admin'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DecisionDialogs, ProposalCells, useDecision } from '@/admin/components/decision.tsx'
import { Mono, PagedTable, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { findAdminAsset, useAdminAssets } from '@/admin/lib/assets.ts'
import { formatUnits } from '@/admin/lib/units.ts'
import { Tabs } from '@/components/tabs.tsx'
import { CHANGE_STATUSES, type ChangeStatus, useApproveChange, useChanges, useRejectChange } from '../api/config.ts'

/**
 * Changes of the allow-list and the asset settings (four eyes): those waiting for a second admin first, with approve
 * (after a confirmation naming what changes; never by the admin who proposed it) and reject (with a reason).
 */
export function Changes() {
  const { t } = useTranslation('admin')
  const canDecide = useAllowed(adminApi.adminChangeApprove)
  const assets = useAdminAssets()
  const [status, setStatus] = useState<ChangeStatus>('pending')
  const { query, items } = useChanges(status)
  const decision = useDecision<AdminChange>()
  const approve = useApproveChange(() => decision.setApproving(null))
  const reject = useRejectChange(() => decision.setRejecting(null))
  const describe = (change: AdminChange) => changeText(change, assets.data, t)

  return (
    <>
      <p className="muted-note">{t('changes.pendingText')}</p>
      <Tabs<ChangeStatus>
        label={t('changes.status')}
        testId="admin-changes-tab"
        value={status}
        onChange={setStatus}
        options={CHANGE_STATUSES.map((value) => ({ value, label: t(`changes.statuses.${value}`) }))}
      />
      <PagedTable
        testId="admin-changes"
        query={query}
        count={items.length}
        head={
          <>
            <th>{t('changes.created')}</th>
            <th>{t('changes.target')}</th>
            <th>{t('changes.what')}</th>
            <th>{t('changes.proposedBy')}</th>
            <th>{t('changes.status')}</th>
            <th>{t('withdrawals.decide')}</th>
          </>
        }
      >
        {items.map((change) => {
          const text = describe(change)
          return (
            <tr key={change.id} data-testid="admin-change-row" data-id={change.id} data-status={change.status}>
              <td>
                <Time iso={change.created_at} />
              </td>
              <td className="admin-wrap">
                {text.kind} · <Mono text={text.target} />
              </td>
              <td className="admin-wrap" data-testid="admin-change-text">
                {text.changes}
              </td>
              <ProposalCells
                item={change}
                proposedBy={change.proposed_by}
                status={t(`changes.statuses.${change.status}`)}
                testId="admin-change"
                canDecide={canDecide}
                decision={decision}
                approving={approve.isPending}
              />
            </tr>
          )
        })}
      </PagedTable>
      <DecisionDialogs
        decision={decision}
        approve={approve}
        reject={reject}
        section="changes"
        approveText={(change) => t('changes.approveText', describe(change))}
      />
    </>
  )
}

type LooseT = (key: string, options?: Record<string, unknown>) => string

/** A change for people: its kind, its target and each field before → after (amounts of the asset, role names). */
export function changeText(change: AdminChange, assets: AdminAsset[] | undefined, translate: unknown) {
  const t = translate as LooseT
  const asset = change.kind === 'asset.save' ? findAdminAsset(assets, change.target.slice('asset:'.length)) : undefined
  const value = (v: unknown) => {
    if (v === null || v === undefined) return t('changes.none')
    if (change.kind !== 'asset.save') return t(`roles.${String(v)}`)
    if (typeof v === 'string' && asset) return formatUnits(v, asset.decimals, asset.symbol)
    return String(v)
  }
  const field = (path: string) => (change.kind === 'asset.save' ? t(`config.asset.${path}`) : t('operators.role'))
  return {
    kind: t(`changes.kinds.${change.kind.replace('.', '_')}`),
    target: change.target.slice(change.target.indexOf(':') + 1),
    changes: change.changes.map((c) => `${field(c.path)}: ${value(c.before)} → ${value(c.after)}`).join('; '),
  }
}
