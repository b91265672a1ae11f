import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { refetch, useLiveTopic } from '@/lib/live/use-live.ts'
import { domainKeys } from '@/lib/query-keys.ts'

/** The latest {product} price (USDT per token, a decimal string) and the trading pair; public. */
export const getPrice = () => call(api.homePrice, {})

export const priceQueryOptions = () => queryOptions({ queryKey: [...domainKeys.home, 'price'], queryFn: getPrice })

/** The price, as the live channel's home topic moves it after trades. */
export function usePrice() {
  const queryClient = useQueryClient()
  const { queryKey } = priceQueryOptions()
  useLiveTopic('home', {
    onEvent: (event) => queryClient.setQueryData(queryKey, event.price),
    onSnapshot: () => refetch(queryClient, queryKey),
  })
  return useQuery(priceQueryOptions())
}
