import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { assetsKeys } from './keys.ts'

/** Per asset: what users are owed against what the platform holds on chain, and when that was read. Public. */
export const getSolvency = () => call(api.solvency, {})

export const solvencyQueryOptions = () =>
  queryOptions({ queryKey: assetsKeys.solvency, queryFn: getSolvency, staleTime: 30_000 })

export const useSolvency = () => useQuery(solvencyQueryOptions())
