import { type Adjustment, api } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAllowed } from '../api/client.ts'
import type { useAdminPages } from '../api/use-admin-pages.ts'
import { ConfirmDialog } from '../components/confirm-dialog.tsx'
import { ReasonDialog } from '../components/reason-dialog.tsx'
import { Mono, PagedTable, Time } from '../components/ui.tsx'
import { useAdminSession } from '../session.ts'
import { formatUnits } from '../utils/units.ts'
import { useApproveAdjustment, useRejectAdjustment } from './api.ts'

interface AdjustmentsTableProps {
  pages: ReturnType<typeof useAdminPages<Adjustment>>
  /** Show whose balance each adjustment is for (the queue of every user's). */
  showUser?: boolean
}

/**
 * Manual balance adjustments with their state; a pending one (every one once two admins exist) is applied, after a
 * confirmation naming the amount and the user, or rejected by a second admin, never by the one who asked for it.
 */
export function AdjustmentsTable({ pages: { query, items }, showUser = false }: AdjustmentsTableProps) {
  const { t } = useTranslation('admin')
  const session = useAdminSession()
  const canDecide = useAllowed(api.adminAdjustApprove)
  const [approving, setApproving] = useState<Adjustment | null>(null)
  const approve = useApproveAdjustment(() => setApproving(null))
  const [rejecting, setRejecting] = useState<Adjustment | null>(null)
  const reject = useRejectAdjustment(() => setRejecting(null))

  return (
    <>
      <PagedTable
        testId="admin-adjustments"
        query={query}
        count={items.length}
        head={
          <>
            <th>{t('adjustments.requested')}</th>
            {showUser && <th>{t('users.address')}</th>}
            <th className="admin-num">{t('adjustments.amount')}</th>
            <th>{t('adjustments.reason')}</th>
            <th>{t('adjustments.requestedBy')}</th>
            <th>{t('adjustments.status')}</th>
            <th>{t('withdrawals.decide')}</th>
          </>
        }
      >
        {items.map((adjustment) => {
          const own = adjustment.requested_by === session?.address
          return (
            <tr
              key={adjustment.id}
              data-testid="admin-adjustment-row"
              data-id={adjustment.id}
              data-status={adjustment.status}
            >
              <td>
                <Time iso={adjustment.created_at} />
              </td>
              {showUser && (
                <td>
                  <Mono text={adjustment.user_address} />
                </td>
              )}
              <td className="admin-num">{formatUnits(adjustment.amount, adjustment.decimals, adjustment.coin)}</td>
              <td className="admin-wrap">{adjustment.reason}</td>
              <td>
                <Mono text={adjustment.requested_by} />
              </td>
              <td className="admin-wrap">
                <span className="badge">{t(`adjustments.statuses.${adjustment.status}`)}</span>
                {adjustment.decided_by && (
                  <div className="muted-note">
                    <Mono text={adjustment.decided_by} /> · <Time iso={adjustment.decided_at} />
                  </div>
                )}
                {adjustment.decision_reason && <div className="muted-note">{adjustment.decision_reason}</div>}
              </td>
              <td>
                {adjustment.status === 'pending' && (
                  <div className="admin-actions">
                    <button
                      type="button"
                      className="admin-button admin-primary"
                      data-testid="admin-adjustment-approve"
                      disabled={!canDecide || own || approve.isPending}
                      title={own ? t('adjustments.notOwn') : undefined}
                      onClick={() => setApproving(adjustment)}
                    >
                      {t('withdrawals.approve')}
                    </button>
                    <button
                      type="button"
                      className="admin-button admin-danger"
                      data-testid="admin-adjustment-reject"
                      disabled={!canDecide}
                      onClick={() => setRejecting(adjustment)}
                    >
                      {t('withdrawals.reject')}
                    </button>
                    {own && <span className="muted-note">{t('adjustments.notOwn')}</span>}
                  </div>
                )}
              </td>
            </tr>
          )
        })}
      </PagedTable>
      <ReasonDialog
        open={rejecting !== null}
        title={t('adjustments.rejectTitle')}
        confirm={t('withdrawals.reject')}
        pending={reject.isPending}
        onClose={() => setRejecting(null)}
        onConfirm={(reason) => rejecting && reject.mutate({ id: rejecting.id, reason })}
      />
      <ConfirmDialog
        open={approving !== null}
        title={t('adjustments.approveTitle')}
        confirm={t('withdrawals.approve')}
        pending={approve.isPending}
        onClose={() => setApproving(null)}
        onConfirm={() => approving && approve.mutate({ id: approving.id })}
      >
        {approving &&
          t('adjustments.approveText', {
            amount: formatUnits(approving.amount, approving.decimals, approving.coin),
            address: approving.user_address,
          })}
      </ConfirmDialog>
    </>
  )
}
