import { api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { teamKeys } from './keys.ts'

/** One direct member's figures (TeamDetail); the server refuses anyone who is not a direct member. */
export const getMember = (member: string) => call(api.teamDetail, { address: member })

export const memberQueryOptions = (address: string | null, member: string | null) =>
  queryOptions({
    queryKey: teamKeys.member(address ?? '', member ?? ''),
    queryFn: address && member ? () => getMember(member) : skipToken,
  })

export function useMember(member: string | null) {
  const address = useSignedInAddress()
  return useQuery(memberQueryOptions(address, member))
}
