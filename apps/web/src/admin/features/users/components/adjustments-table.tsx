import { adminApi } from '@solpledge/contract/admin'
import type { Adjustment } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { DecisionDialogs, ProposalCells, useDecision } from '@/admin/components/decision.tsx'
import { Mono, PagedTable, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
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
              <ProposalCells
                item={adjustment}
                proposedBy={adjustment.requested_by}
                status={t(`adjustments.statuses.${adjustment.status}`)}
                testId="admin-adjustment"
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
