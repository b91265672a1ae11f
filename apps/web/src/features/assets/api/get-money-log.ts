import { api, type LedgerType } from '@solpledge/contract/client'
import { infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
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

/** The ledger entries, read again shortly after each movement of the asset's balances (a live balance event). */
export function useMoneyLog(coin: string, type?: LedgerType) {
  const address = useSignedInAddress()
  useLiveRefresh('user', assetsKeys.moneyLog(address ?? '', coin), {
    match: (event) => event.kind === 'balance' && event.coin === coin,
    enabled: address !== null && coin !== '',
  })
  return useInfiniteQuery({ ...moneyLogQueryOptions(address, coin, type), enabled: coin !== '' })
}
