import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { pledgeKeys } from './keys.ts'

/** Each staking period's and finance term's output rate as the applied configuration versions changed it. */
export const getRateHistory = () => call(api.rateHistory, {})

export type RateHistory = Awaited<ReturnType<typeof getRateHistory>>

export const rateHistoryQueryOptions = () => queryOptions({ queryKey: pledgeKeys.rates(), queryFn: getRateHistory })

export const useRateHistory = () => useQuery(rateHistoryQueryOptions())
