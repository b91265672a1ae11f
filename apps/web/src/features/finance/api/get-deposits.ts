import { api, type FinanceDeposit } from '@solpledge/contract/client'
import { infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { nextPage } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { FINANCE_PAGE_SIZE, financeKeys } from './keys.ts'

/** One page of the user's finance deposits of a status (active or expired), newest first. */
export const getDeposits = (status: FinanceDeposit['status'], page: number) =>
  call(api.financeList, { status, page, limit: FINANCE_PAGE_SIZE })

export const depositsQueryOptions = (address: string | null, status: FinanceDeposit['status']) =>
  infiniteQueryOptions({
    queryKey: financeKeys.deposits(address ?? '', status),
    queryFn: address ? ({ pageParam }) => getDeposits(status, pageParam) : skipToken,
    initialPageParam: 1,
    getNextPageParam: nextPage,
  })

export function useDeposits(status: FinanceDeposit['status']) {
  const address = useSignedInAddress()
  // Output, expiry, a new position: each moves the user's money.
  useLiveRefresh('user', financeKeys.depositLists(address ?? ''), {
    match: (event) => event.kind === 'balance',
    enabled: address !== null,
  })
  return useInfiniteQuery(depositsQueryOptions(address, status))
}
