import { api } from '@solpledge/contract/client'
import { infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { nextPage } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { FINANCE_PAGE_SIZE, financeKeys } from './keys.ts'

/** One of the user's deposits with a page of its output records, newest first. */
export const getDeposit = (id: string, page: number) => call(api.financeDetail, { id, page, limit: FINANCE_PAGE_SIZE })

/** The deposit and its output records, page by page; each page also carries the deposit. */
export const depositQueryOptions = (address: string | null, id: string) =>
  infiniteQueryOptions({
    queryKey: financeKeys.deposit(address ?? '', id),
    queryFn: address && id ? ({ pageParam }) => getDeposit(id, pageParam) : skipToken,
    initialPageParam: 1,
    getNextPageParam: (last) => nextPage(last.records),
  })

export function useDeposit(id: string) {
  const address = useSignedInAddress()
  // Output, expiry, a new position: each moves the user's money.
  useLiveRefresh('user', depositQueryOptions(address, id).queryKey, {
    match: (event) => event.kind === 'balance',
    enabled: address !== null,
  })
  return useInfiniteQuery(depositQueryOptions(address, id))
}
