import type { AdminWithdrawal } from '@solpledge/contract/client'

/** Where a withdrawal in review stands with its approvals. */
export type ReviewState = 'open' | 'needsTwo' | 'needsSecond' | 'approvedByMe'

export function reviewState(
  withdrawal: Pick<AdminWithdrawal, 'approvals' | 'approvals_needed'>,
  me: string,
): ReviewState {
  if (withdrawal.approvals.some((approval) => approval.admin === me)) return 'approvedByMe'
  if (withdrawal.approvals_needed < 2) return 'open'
  return withdrawal.approvals.length === 0 ? 'needsTwo' : 'needsSecond'
}
