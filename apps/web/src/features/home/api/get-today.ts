import { api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '../../../lib/api-client.ts'
import { useSignedInAddress } from '../../../lib/session.ts'

/** Today's figures of the signed-in user (the staking module's /invest/invest_pledge/today). */
export const getToday = () => call(api.today, {})

export const todayQueryOptions = (address: string | null) =>
  queryOptions({ queryKey: ['home', 'today', address ?? ''], queryFn: address ? getToday : skipToken })

export function useToday() {
  const address = useSignedInAddress()
  return useQuery(todayQueryOptions(address))
}
