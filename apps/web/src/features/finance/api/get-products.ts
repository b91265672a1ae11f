import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { financeKeys } from './keys.ts'

/** The finance products: periods of 7, 30, 90 and 180 days with their power multiple and output. Public. */
export const getFinanceProducts = () => call(api.financeProducts, {})

export type FinanceProducts = Awaited<ReturnType<typeof getFinanceProducts>>

export const financeProductsQueryOptions = () =>
  queryOptions({ queryKey: financeKeys.products, queryFn: getFinanceProducts })

export function useFinanceProducts() {
  useLiveRefresh('config', financeProductsQueryOptions().queryKey)
  return useQuery(financeProductsQueryOptions())
}
