import { adminApi } from '@solpledge/contract/admin'
import type { AdminWithdrawal } from '@solpledge/contract/client'
import { adminCall } from '@/admin/lib/api-client.ts'
import { useConsoleRefresh } from '@/admin/lib/live.ts'
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

/**
 * Withdrawals of a status: 'review' is the queue waiting for a decision, oldest first. It changes as users ask, other
 * operators decide and the sender sends: read again on the console topic's withdrawal events.
 */
export function useAdminWithdrawals(filter: WithdrawalFilter) {
  useConsoleRefresh(adminKeys.withdrawalLists(), (event) => event.kind === 'withdrawal')
  return useAdminPages(adminKeys.withdrawals(filter), (page) =>
    adminCall(adminApi.adminWithdrawals, { ...filter, ...page }),
  )
}

export const useApproveWithdrawal = (onDone: () => void) => useAdminAction(adminApi.adminWithdrawalApprove, onDone)

export const useRejectWithdrawal = (onDone: () => void) => useAdminAction(adminApi.adminWithdrawalReject, onDone)
