import { adminApi } from '@solpledge/contract/admin'
import type { AdminWithdrawal } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { DecisionButtons, DecisionDialogs, useDecision } from '@/admin/components/decision.tsx'
import { AdminPage, CoinField, ExportButton, Mono, PagedTable, SearchForm, Time } from '@/admin/components/ui.tsx'
import { useAllowed } from '@/admin/lib/api-client.ts'
import { useAdminAssets } from '@/admin/lib/assets.ts'
import { withoutEmpty } from '@/admin/lib/filters.ts'
import { useAdminSession } from '@/admin/lib/session.ts'
import { formatUnits } from '@/admin/lib/units.ts'
import { Tabs } from '@/components/tabs.tsx'
import {
  useAdminWithdrawals,
  useApproveWithdrawal,
  useRejectWithdrawal,
  WITHDRAWAL_STATUSES,
  type WithdrawalStatus,
} from '../api/withdrawals.ts'
import { isOwnWallet, reviewState } from '../utils/review-state.ts'

/**
 * Withdrawal review (docs/admin.md#withdrawal-review): the queue waiting for a decision, oldest first, with approve and
 * reject (with a reason: the funds go back to the user); the other statuses to follow what was sent. A withdrawal at or
 * above the asset's dual review threshold needs the approvals of two different operators.
 */
export function WithdrawalsScreen() {
  const { t } = useTranslation('admin')
  const [status, setStatus] = useState<WithdrawalStatus>('review')
  const [search, setSearch] = useState({ coin: '', address: '' })
  const [applied, setApplied] = useState(search)
  const assets = useAdminAssets()
  const { query, items } = useAdminWithdrawals({ status, ...withoutEmpty(applied) })
  const decision = useDecision<AdminWithdrawal>()
  const approve = useApproveWithdrawal(() => decision.setApproving(null))
  const reject = useRejectWithdrawal(() => decision.setRejecting(null))
  const session = useAdminSession()
  const amountOf = (w: AdminWithdrawal) => formatUnits(w.amount, w.decimals, w.coin)

  return (
    <AdminPage title={t('sections.withdrawals')}>
      <Tabs<WithdrawalStatus>
        label={t('withdrawals.status')}
        testId="admin-withdrawals-tab"
        value={status}
        onChange={setStatus}
        options={WITHDRAWAL_STATUSES.map((value) => ({ value, label: t(`withdrawals.statuses.${value}`) }))}
      />
      <SearchForm onSearch={() => setApplied(search)}>
        <CoinField
          coins={assets.data?.map((asset) => asset.coin) ?? []}
          value={search.coin}
          onChange={(coin) => {
            setSearch({ ...search, coin })
            setApplied({ ...applied, coin })
          }}
        />
        <label className="admin-field">
          <span>{t('withdrawals.user')}</span>
          <input value={search.address} onChange={(event) => setSearch({ ...search, address: event.target.value })} />
        </label>
      </SearchForm>
      <ExportButton
        route={adminApi.adminWithdrawalsCsv}
        body={{ status, ...withoutEmpty(applied) }}
        testId="admin-withdrawals-export"
      />
      <PagedTable
        testId="admin-withdrawals"
        query={query}
        count={items.length}
        head={
          <>
            <th>{t('withdrawals.user')}</th>
            <th className="admin-num">{t('withdrawals.amount')}</th>
            <th>{t('withdrawals.approvals')}</th>
            {status === 'review' && <th>{t('withdrawals.decide')}</th>}
            <th className="admin-num">{t('withdrawals.fee')}</th>
            <th className="admin-num">{t('withdrawals.receive')}</th>
            <th>{t('withdrawals.requested')}</th>
            <th>{t('withdrawals.result')}</th>
          </>
        }
      >
        {items.map((withdrawal) => (
          <WithdrawalRow
            key={withdrawal.id}
            withdrawal={withdrawal}
            approving={approve.isPending}
            onApprove={() => decision.setApproving(withdrawal)}
            onReject={() => decision.setRejecting(withdrawal)}
          />
        ))}
      </PagedTable>
      <DecisionDialogs
        decision={decision}
        approve={approve}
        reject={reject}
        section="withdrawals"
        approveText={(w) => t('withdrawals.approveText', { amount: amountOf(w), address: w.address })}
        approveWarning={(w) =>
          session && isOwnWallet(w, session.address)
            ? { text: t('withdrawals.ownWallet'), acknowledge: t('withdrawals.ownWalletAcknowledge') }
            : null
        }
        rejectText={(w) => t('withdrawals.rejectText', { amount: amountOf(w), address: w.user_address })}
      />
    </AdminPage>
  )
}

interface WithdrawalRowProps {
  withdrawal: AdminWithdrawal
  approving: boolean
  onApprove: () => void
  onReject: () => void
}

function WithdrawalRow({ withdrawal, approving, onApprove, onReject }: WithdrawalRowProps) {
  const { t } = useTranslation('admin')
  const session = useAdminSession()
  const canDecide = useAllowed(adminApi.adminWithdrawalApprove)
  const amount = (units: string) => formatUnits(units, withdrawal.decimals, withdrawal.coin)
  const inReview = withdrawal.status === 'review'
  const state = reviewState(withdrawal, session?.address ?? '')

  return (
    <tr
      data-testid="admin-withdrawal-row"
      data-id={withdrawal.id}
      data-status={withdrawal.status}
      data-user={withdrawal.user_address}
    >
      <td>
        <Link to={`/admin/users?address=${encodeURIComponent(withdrawal.user_address)}`}>
          <Mono text={withdrawal.user_address} />
        </Link>
      </td>
      <td className="admin-num" data-testid="admin-withdrawal-amount">
        {amount(withdrawal.amount)}
      </td>
      <td className="admin-wrap">
        <span data-testid="admin-withdrawal-approvals">
          {withdrawal.approvals.length}/{withdrawal.approvals_needed}
        </span>
        {withdrawal.approvals.map((approval) => (
          <div key={approval.admin} className="muted-note">
            <Mono text={approval.admin} testId="admin-withdrawal-approver" /> · <Time iso={approval.at} />
          </div>
        ))}
        {inReview && state !== 'open' && (
          <div className="badge badge-wait" data-testid="admin-withdrawal-review-state" data-state={state}>
            {t(`withdrawals.reviewStates.${state}`)}
          </div>
        )}
      </td>
      {inReview && (
        <td>
          <DecisionButtons
            testId="admin-withdrawal"
            canDecide={canDecide}
            blocked={state === 'approvedByMe'}
            pending={approving}
            onApprove={onApprove}
            onReject={onReject}
          />
        </td>
      )}
      <td className="admin-num">{amount(withdrawal.fee)}</td>
      <td className="admin-num">{amount(withdrawal.receive)}</td>
      <td>
        <Time iso={withdrawal.created_at} />
      </td>
      <td className="admin-wrap">
        <span className="badge">{t(`withdrawals.statuses.${withdrawal.status}`)}</span>
        {withdrawal.error && <div className="admin-error">{withdrawal.error}</div>}
        {withdrawal.signature && <Mono text={withdrawal.signature} />}
      </td>
    </tr>
  )
}
