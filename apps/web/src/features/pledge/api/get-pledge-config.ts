import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useClientConfig } from '@/lib/client-config.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { pledgeKeys } from './keys.ts'

/** The staking configuration of {product}: price, minimum and periods (/invest/invest_pledge/{product}). Public. */
export const getPledgeConfig = (product: string) => call(api.pledgeConfig, {}, { params: { product } })

export const pledgeConfigQueryOptions = (product: string) =>
  queryOptions({ queryKey: pledgeKeys.config(product), queryFn: () => getPledgeConfig(product) })

export function usePledgeConfig() {
  const { productSymbol } = useClientConfig()
  useLiveRefresh('config', pledgeConfigQueryOptions(productSymbol).queryKey)
  return useQuery(pledgeConfigQueryOptions(productSymbol))
}
