import { api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '../../../lib/api-client.ts'
import { useSignedInAddress } from '../../../lib/session.ts'
import { pledgeKeys } from './keys.ts'

/** Today's figures: the user's output of the last settled day and the power figures. */
export const getToday = () => call(api.today, {})

export type Today = Awaited<ReturnType<typeof getToday>>

export const todayQueryOptions = (address: string | null) =>
  queryOptions({ queryKey: pledgeKeys.today(address ?? ''), queryFn: address ? getToday : skipToken })

export function useToday() {
  const address = useSignedInAddress()
  return useQuery(todayQueryOptions(address))
}
