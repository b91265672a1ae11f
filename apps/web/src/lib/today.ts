import { api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
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
  return useQuery(todayQueryOptions(address))
}
