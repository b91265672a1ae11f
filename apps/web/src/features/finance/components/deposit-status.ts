import type { FinanceDeposit } from '@solpledge/contract/client'
import type { TFunction } from 'i18next'

/** A deposit's status as a badge: active, expired (redeemable) or redeemed. */
export function depositStatus(t: TFunction, deposit: Pick<FinanceDeposit, 'status' | 'redeemed_at'>) {
  if (deposit.redeemed_at) return { value: 'redeemed', label: t('finance.status.redeemed'), tone: 'wait' as const }
  if (deposit.status === 'active') return { value: 'active', label: t('finance.status.active'), tone: 'ok' as const }
  return { value: 'expired', label: t('finance.status.expired'), tone: 'wait' as const }
}
