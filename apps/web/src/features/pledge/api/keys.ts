import type { Stake } from '@solpledge/contract/client'
import { domainKeys } from '@/lib/query-keys.ts'

/** How many stakes and output records a list loads at a time. */
export const PLEDGE_PAGE_SIZE = 10

/** Query keys of the pledge feature; what each action refreshes: INVALIDATES in query-keys.ts. */
export const pledgeKeys = {
  config: (product: string) => [...domainKeys.pledge, 'config', product] as const,
  fuel: (address: string) => [...domainKeys.pledge, 'fuel', address] as const,
  stakes: (address: string, status: Stake['status']) => [...domainKeys.pledge, 'stakes', address, status] as const,
  stake: (address: string, id: string) => [...domainKeys.pledge, 'stake', address, id] as const,
  records: (address: string, id: string) => [...domainKeys.pledge, 'records', address, id] as const,
  history: (address: string, days: number) => [...domainKeys.pledge, 'history', address, days] as const,
  prices: (days: number) => [...domainKeys.pledge, 'prices', days] as const,
  rates: () => [...domainKeys.pledge, 'rates'] as const,
}
