import { api } from '@solpledge/contract/client'
import { infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { nextPage } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { TEAM_PAGE_SIZE, teamKeys } from './keys.ts'

/** One page of the signed-in user's direct members, newest first. */
export const getMembers = (page: number) => call(api.teamList, { page, limit: TEAM_PAGE_SIZE })

export const membersQueryOptions = (address: string | null) =>
  infiniteQueryOptions({
    queryKey: teamKeys.members(address ?? ''),
    queryFn: address ? ({ pageParam }) => getMembers(pageParam) : skipToken,
    initialPageParam: 1,
    getNextPageParam: nextPage,
  })

export function useMembers() {
  const address = useSignedInAddress()
  useLiveRefresh('user', membersQueryOptions(address).queryKey, {
    match: (event) => event.kind === 'team',
    enabled: address !== null,
  })
  return useInfiniteQuery(membersQueryOptions(address))
}
