import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { assetsKeys } from './keys.ts'

/** Per asset: what users are owed against what the platform holds on chain, and when that was read. Public. */
export const getSolvency = () => call(api.solvency, {})

export const solvencyQueryOptions = () =>
  queryOptions({ queryKey: assetsKeys.solvency, queryFn: getSolvency, staleTime: 30_000 })

/** Read again when a proof-of-liabilities root is published (the daily settlement moved what is owed). */
export function useSolvency() {
  useLiveRefresh('liabilities', solvencyQueryOptions().queryKey)
  return useQuery(solvencyQueryOptions())
}
