import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { domainKeys } from '@/lib/query-keys.ts'

/** The latest {product} price (USDT per token, a decimal string) and the trading pair; public. */
export const getPrice = () => call(api.homePrice, {})

export const priceQueryOptions = () => queryOptions({ queryKey: [...domainKeys.home, 'price'], queryFn: getPrice })

export const usePrice = () => useQuery(priceQueryOptions())
