import type { FinanceDeposit } from '@solpledge/contract/client'
import { domainKeys } from '@/lib/query-keys.ts'

/** How many deposits and output records a list loads at a time. */
export const FINANCE_PAGE_SIZE = 10

/** Query keys of the finance feature; what each action refreshes: INVALIDATES in query-keys.ts. */
export const financeKeys = {
  products: [...domainKeys.finance, 'products'] as const,
  /** A user's lists of deposits, of every status: what an event refreshes (another tab's reads again when shown). */
  depositLists: (address: string) => [...domainKeys.finance, 'deposits', address] as const,
  deposits: (address: string, status: FinanceDeposit['status']) =>
    [...financeKeys.depositLists(address), status] as const,
  deposit: (address: string, id: string) => [...domainKeys.finance, 'deposit', address, id] as const,
}
