import { api } from '@solpledge/contract/client'
import { infiniteQueryOptions, queryOptions, skipToken, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { nextPage } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { PLEDGE_PAGE_SIZE, pledgeKeys } from './keys.ts'

/** One of the user's stakes with a page of its output records, newest first (MinerDetail). */
export const getStake = (id: string, page = 1, limit = PLEDGE_PAGE_SIZE) =>
  call(api.minerDetail, { id, page, limit, parent_id: id })

/** The stake alone (its order detail). */
export const stakeQueryOptions = (address: string | null, id: string) =>
  queryOptions({
    queryKey: pledgeKeys.stake(address ?? '', id),
    queryFn: address && id ? async () => (await getStake(id, 1, 1)).detail : skipToken,
  })

export function useStake(id: string) {
  const address = useSignedInAddress()
  // Output, expiry, a new position: each moves the user's money.
  useLiveRefresh('user', stakeQueryOptions(address, id).queryKey, {
    match: (event) => event.kind === 'balance',
    enabled: address !== null,
  })
  return useQuery(stakeQueryOptions(address, id))
}

/** The stake's output records, page by page; each page also carries the stake. */
export const stakeRecordsQueryOptions = (address: string | null, id: string) =>
  infiniteQueryOptions({
    queryKey: pledgeKeys.records(address ?? '', id),
    queryFn: address && id ? ({ pageParam }) => getStake(id, pageParam) : skipToken,
    initialPageParam: 1,
    getNextPageParam: (last) => nextPage(last.records),
  })

export function useStakeRecords(id: string) {
  const address = useSignedInAddress()
  useLiveRefresh('user', stakeRecordsQueryOptions(address, id).queryKey, {
    match: (event) => event.kind === 'balance',
    enabled: address !== null,
  })
  return useInfiniteQuery(stakeRecordsQueryOptions(address, id))
}
