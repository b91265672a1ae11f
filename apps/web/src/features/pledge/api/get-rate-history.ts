import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { pledgeKeys } from './keys.ts'

/** Each staking period's and finance term's output rate as the applied configuration versions changed it. */
export const getRateHistory = () => call(api.rateHistory, {})

export type RateHistory = Awaited<ReturnType<typeof getRateHistory>>

export const rateHistoryQueryOptions = () => queryOptions({ queryKey: pledgeKeys.rates(), queryFn: getRateHistory })

export function useRateHistory() {
  // A configuration version applied: the rates may have changed.
  useLiveRefresh('config', rateHistoryQueryOptions().queryKey, { match: (event) => event.kind === 'config' })
  return useQuery(rateHistoryQueryOptions())
}
