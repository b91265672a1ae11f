import { adminApi } from '@solpledge/contract/admin'
import type { Adjustment } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { DecisionButtons, DecisionDialogs, DecisionState, useDecision } from '@/admin/components/decision.tsx'
import { Mono, PagedTable, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { useAdminSession } from '@/admin/lib/session.ts'
import { formatUnits } from '@/admin/lib/units.ts'
import type { useAdminPages } from '@/admin/lib/use-admin-pages.ts'
import { useApproveAdjustment, useRejectAdjustment } from '../api/users.ts'

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
  const canDecide = useAllowed(adminApi.adminAdjustApprove)
  const decision = useDecision<Adjustment>()
  const approve = useApproveAdjustment(() => decision.setApproving(null))
  const reject = useRejectAdjustment(() => decision.setRejecting(null))

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
              <DecisionState
                status={t(`adjustments.statuses.${adjustment.status}`)}
                decidedBy={adjustment.decided_by}
                decidedAt={adjustment.decided_at}
                reason={adjustment.decision_reason}
              />
              <td>
                {adjustment.status === 'pending' && (
                  <DecisionButtons
                    testId="admin-adjustment"
                    canDecide={canDecide}
                    blocked={own}
                    blockedNote={t('adjustments.notOwn')}
                    pending={approve.isPending}
                    onApprove={() => decision.setApproving(adjustment)}
                    onReject={() => decision.setRejecting(adjustment)}
                  />
                )}
              </td>
            </tr>
          )
        })}
      </PagedTable>
      <DecisionDialogs
        decision={decision}
        approve={approve}
        reject={reject}
        section="adjustments"
        approveText={(adjustment) =>
          t('adjustments.approveText', {
            amount: formatUnits(adjustment.amount, adjustment.decimals, adjustment.coin),
            address: adjustment.user_address,
          })
        }
      />
    </>
  )
}
