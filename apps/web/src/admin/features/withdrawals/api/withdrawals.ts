import { adminApi } from '@solpledge/contract/admin'
import type { AdminWithdrawal } from '@solpledge/contract/client'
import { adminCall } from '@/admin/lib/api-client.ts'
import { adminKeys } from '@/admin/lib/query-keys.ts'
import { useAdminAction } from '@/admin/lib/use-admin-action.ts'
import { useAdminPages } from '@/admin/lib/use-admin-pages.ts'

export type WithdrawalStatus = AdminWithdrawal['status']
export const WITHDRAWAL_STATUSES: readonly WithdrawalStatus[] = [
  'review',
  'pending',
  'sent',
  'confirmed',
  'failed',
  'rejected',
]

export interface WithdrawalFilter {
  status: WithdrawalStatus
  coin?: string
  address?: string
}

/** The queue changes as other operators decide and the sender sends: refreshed this often while visible. */
const QUEUE_POLL_MS = 10_000

/** Withdrawals of a status: 'review' is the queue waiting for a decision, oldest first. */
export const useAdminWithdrawals = (filter: WithdrawalFilter) =>
  useAdminPages(adminKeys.withdrawals(filter), (page) => adminCall(adminApi.adminWithdrawals, { ...filter, ...page }), {
    pollMs: QUEUE_POLL_MS,
  })

export const useApproveWithdrawal = (onDone: () => void) => useAdminAction(adminApi.adminWithdrawalApprove, onDone)

export const useRejectWithdrawal = (onDone: () => void) => useAdminAction(adminApi.adminWithdrawalReject, onDone)
