import { api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { teamKeys } from './keys.ts'

/** The signed-in user's team figures (counts, performance, power, small-market fuel). */
export const getTeam = () => call(api.teamIndex, {})

export const teamQueryOptions = (address: string | null) =>
  queryOptions({ queryKey: teamKeys.figures(address ?? ''), queryFn: address ? getTeam : skipToken })

export function useTeam() {
  const address = useSignedInAddress()
  useLiveRefresh('user', teamQueryOptions(address).queryKey, {
    match: (event) => event.kind === 'team' || event.kind === 'balance',
    enabled: address !== null,
  })
  return useQuery(teamQueryOptions(address))
}
