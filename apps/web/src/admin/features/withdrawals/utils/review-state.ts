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

/**
 * The reviewer's own wallet receives this withdrawal (it is theirs, or it is sent to their address): approving it is
 * paying oneself, which the console asks to confirm twice.
 */
export function isOwnWallet(withdrawal: Pick<AdminWithdrawal, 'address' | 'user_address'>, me: string): boolean {
  return withdrawal.address === me || withdrawal.user_address === me
}
