import type { Stake } from '@solpledge/contract/client'
import { domainKeys } from '@/lib/query-keys.ts'

/** How many stakes and output records a list loads at a time. */
export const PLEDGE_PAGE_SIZE = 10

/** Query keys of the pledge feature; what each action refreshes: INVALIDATES in query-keys.ts. */
export const pledgeKeys = {
  config: (product: string) => [...domainKeys.pledge, 'config', product] as const,
  fuel: (address: string) => [...domainKeys.pledge, 'fuel', address] as const,
  /** A user's lists of stakes, of every status: what an event refreshes (the other tab's list reads again when shown). */
  stakeLists: (address: string) => [...domainKeys.pledge, 'stakes', address] as const,
  stakes: (address: string, status: Stake['status']) => [...pledgeKeys.stakeLists(address), status] as const,
  stake: (address: string, id: string) => [...domainKeys.pledge, 'stake', address, id] as const,
  records: (address: string, id: string) => [...domainKeys.pledge, 'records', address, id] as const,
  histories: (address: string) => [...domainKeys.pledge, 'history', address] as const,
  history: (address: string, days: number) => [...pledgeKeys.histories(address), days] as const,
  prices: (days: number) => [...domainKeys.pledge, 'prices', days] as const,
  rates: () => [...domainKeys.pledge, 'rates'] as const,
}
