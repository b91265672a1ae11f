import type { FinanceDeposit } from '@solpledge/contract/client'

/** How many deposits and output records a list loads at a time. */
export const FINANCE_PAGE_SIZE = 10

/** Query keys of the finance feature; everything below `all` is refreshed after a deposit or a redemption. */
export const financeKeys = {
  all: ['finance'] as const,
  products: ['finance', 'products'] as const,
  deposits: (address: string, status: FinanceDeposit['status']) => ['finance', 'deposits', address, status] as const,
  deposit: (address: string, id: string) => ['finance', 'deposit', address, id] as const,
}
