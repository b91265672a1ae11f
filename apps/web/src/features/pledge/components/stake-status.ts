import type { Stake } from '@solpledge/contract/client'
import type { TFunction } from 'i18next'

/** A stake's status as a badge: mining is running, expired is over. */
export const stakeStatus = (t: TFunction, status: Stake['status']) => ({
  value: status,
  label: t(`pledge.stakes.${status}`),
  tone: status === 'mining' ? ('ok' as const) : ('wait' as const),
})
