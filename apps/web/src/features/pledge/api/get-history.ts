import { api } from '@solpledge/contract/client'
import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { pledgeKeys } from './keys.ts'

/** The user's output per settled day and personal power over the last `days` days (the history charts). */
export const getHistory = (days: number) => call(api.myHistory, { days })

export type History = Awaited<ReturnType<typeof getHistory>>

export const historyQueryOptions = (address: string | null, days: number) =>
  queryOptions({
    queryKey: pledgeKeys.history(address ?? '', days),
    queryFn: address ? () => getHistory(days) : skipToken,
    // Another window keeps the charts of the one before until it is here.
    placeholderData: keepPreviousData,
  })

export function useHistory(days: number) {
  const address = useSignedInAddress()
  // Output, expiry, a new position: each changes the figures.
  useLiveRefresh('user', pledgeKeys.histories(address ?? ''), {
    match: (event) => event.kind === 'balance',
    enabled: address !== null,
  })
  return useQuery(historyQueryOptions(address, days))
}
