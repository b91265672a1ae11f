import { api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { call } from './api-client.ts'
import { domainKeys } from './query-keys.ts'
import { useSignedInAddress } from './session.ts'

/**
 * Today's figures of the signed-in user (the pledge domain's /invest/invest_pledge/today: the output of the last
 * settled day and the power figures), shown by the home and the pledge screens: one cache entry under the pledge
 * domain's key, so a stake refreshes it on both.
 */
export const getToday = () => call(api.today, {})

export const todayQueryOptions = (address: string | null) =>
  queryOptions({ queryKey: [...domainKeys.pledge, 'today', address ?? ''], queryFn: address ? getToday : skipToken })

export function useToday() {
  const address = useSignedInAddress()
  // The user's own stakes, deposits and nodes move their money; a member's do not reach here (a safety refresh would).
  useLiveRefresh('user', todayQueryOptions(address).queryKey, {
    match: (event) => event.kind === 'balance',
    enabled: address !== null,
  })
  return useQuery(todayQueryOptions(address))
}
