import { api, type Stake } from '@solpledge/contract/client'
import { infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { nextPage } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { PLEDGE_PAGE_SIZE, pledgeKeys } from './keys.ts'

/** One page of the user's stakes of a status (mining or expired), newest first (getMinerList). */
export const getStakes = (status: Stake['status'], page: number) =>
  call(api.minerList, { status, page, limit: PLEDGE_PAGE_SIZE })

export const stakesQueryOptions = (address: string | null, status: Stake['status']) =>
  infiniteQueryOptions({
    queryKey: pledgeKeys.stakes(address ?? '', status),
    queryFn: address ? ({ pageParam }) => getStakes(status, pageParam) : skipToken,
    initialPageParam: 1,
    getNextPageParam: nextPage,
  })

export function useStakes(status: Stake['status']) {
  const address = useSignedInAddress()
  // Output, expiry, a new position: each moves the user's money.
  useLiveRefresh('user', pledgeKeys.stakeLists(address ?? ''), {
    match: (event) => event.kind === 'balance',
    enabled: address !== null,
  })
  return useInfiniteQuery(stakesQueryOptions(address, status))
}
