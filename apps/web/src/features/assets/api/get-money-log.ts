import { api, type LedgerType } from '@solpledge/contract/client'
import { infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { nextPage, PAGE_SIZE } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { assetsKeys } from './keys.ts'

/** One page of the user's ledger entries for an asset, newest first, of one type or all. */
export const getMoneyLog = (coin: string, page: number, type?: LedgerType) =>
  call(api.moneyLog, { page, limit: PAGE_SIZE, coin, ...(type && { type }) })

export const moneyLogQueryOptions = (address: string | null, coin: string, type?: LedgerType) =>
  infiniteQueryOptions({
    queryKey: [...assetsKeys.moneyLog(address ?? '', coin), type ?? 'all'],
    queryFn: address ? ({ pageParam }) => getMoneyLog(coin, pageParam, type) : skipToken,
    initialPageParam: 1,
    getNextPageParam: nextPage,
  })

export function useMoneyLog(coin: string, type?: LedgerType) {
  const address = useSignedInAddress()
  return useInfiniteQuery({ ...moneyLogQueryOptions(address, coin, type), enabled: coin !== '' })
}
