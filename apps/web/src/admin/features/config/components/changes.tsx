import type { AdminAsset, AdminChange } from '@solpledge/contract'
import { adminApi } from '@solpledge/contract/admin'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DecisionDialogs, ProposalCells, useDecision } from '@/admin/components/decision.tsx'
import { Mono, PagedTable, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { findAdminAsset, useAdminAssets } from '@/admin/lib/assets.ts'
import { formatAssetUnits } from '@/admin/lib/units.ts'
import { Tabs } from '@/components/tabs.tsx'
import {
  CHANGE_STATUSES,
  type ChangeStatus,
  useApproveChange,
  useChanges,
  useConfigUnits,
  useRejectChange,
} from '../api/config.ts'
import { formatLeaf } from '../utils/draft.ts'
import { useFieldLabels } from '../utils/labels.ts'
import type { Units } from './business-form.tsx'

/**
 * Changes of the allow-list, the asset settings, the business configuration and releases of held settlement days
 * (four eyes, docs/admin.md): those waiting for a second admin first, with approve (after a confirmation naming what
 * changes; never by the admin who proposed it) and reject (with a reason); then the scheduled ones, which raise
 * payouts and take effect at the end of their notice period unless cancelled.
 */
export function Changes() {
  const { t } = useTranslation('admin')
  const canDecide = useAllowed(adminApi.adminChangeApprove)
  const assets = useAdminAssets()
  const { units } = useConfigUnits()
  const label = useFieldLabels()
  const [status, setStatus] = useState<ChangeStatus>('pending')
  const { query, items } = useChanges(status)
  const decision = useDecision<AdminChange>()
  const approve = useApproveChange(() => decision.setApproving(null))
  const reject = useRejectChange(() => decision.setRejecting(null))
  const describe = (change: AdminChange) => changeText(change, { assets: assets.data, units, label }, t)

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
            <th>{t('changes.effective')}</th>
            <th>{t('changes.proposedBy')}</th>
            <th>{t('changes.status')}</th>
            <th>{t('withdrawals.decide')}</th>
          </>
        }
      >
        {items.map((change) => {
          const text = describe(change)
          return (
            <tr
              key={change.id}
              data-testid="admin-change-row"
              data-id={change.id}
              data-kind={change.kind}
              data-status={change.status}
            >
              <td>
                <Time iso={change.created_at} />
              </td>
              <td className="admin-wrap">
                {text.kind}
                {text.target && (
                  <>
                    {' '}
                    · <Mono text={text.target} />
                  </>
                )}
              </td>
              <td className="admin-wrap" data-testid="admin-change-text">
                {text.changes}
              </td>
              <td className="admin-wrap" data-testid="admin-change-effective">
                {change.raises_payouts && <div className="badge">{t('changes.raisesPayouts')}</div>}
                {change.effective_at && <Time iso={change.effective_at} />}
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
        approveText={(change) => (
          <>
            {t('changes.approveText', describe(change))}
            {change.raises_payouts && <p className="admin-error">{t('config.confirmRaises')}</p>}
          </>
        )}
      />
    </>
  )
}

type LooseT = (key: string, options?: Record<string, unknown>) => string

interface Context {
  assets: AdminAsset[] | undefined
  /** The configuration's units (undefined until the assets are loaded: amounts then show as stored). */
  units: Units | undefined
  label: ReturnType<typeof useFieldLabels>
}

/**
 * A change for people: its kind, its target and each field before → after (asset amounts in the asset's units,
 * configuration values in their own unit, role names).
 */
export function changeText(change: AdminChange, { assets, units, label }: Context, translate: unknown) {
  const t = translate as LooseT
  const none = (v: unknown) => v === null || v === undefined
  const describeField = (path: string, before: unknown, after: unknown, show: (v: unknown) => string) =>
    `${path}: ${show(before)} → ${show(after)}`
  let changes: string
  if (change.kind === 'asset.save') {
    const asset = findAdminAsset(assets, change.target.slice('asset:'.length))
    const show = (v: unknown) =>
      none(v)
        ? t('changes.none')
        : typeof v === 'string' && asset
          ? formatAssetUnits(v, asset.decimals, asset.symbol)
          : String(v)
    changes = change.changes.map((c) => describeField(label.ofAssetField(c.path), c.before, c.after, show)).join('; ')
  } else if (change.kind === 'config.save') {
    changes = change.changes
      .map((c) =>
        describeField(label.ofPath(c.path), c.before, c.after, (v) =>
          units ? formatLeaf(c.path, v, units.decimals, units.symbols) : none(v) ? '—' : String(v),
        ),
      )
      .join('; ')
  } else if (change.kind === 'settlement.release') {
    changes = t('changes.released')
  } else {
    changes = change.changes
      .map((c) =>
        describeField(t('operators.role'), c.before, c.after, (v) =>
          none(v) ? t('changes.none') : t(`roles.${String(v)}`),
        ),
      )
      .join('; ')
  }
  return {
    kind: t(`changes.kinds.${change.kind.replace('.', '_')}`),
    target: change.target.includes(':') ? change.target.slice(change.target.indexOf(':') + 1) : '',
    changes,
  }
}
