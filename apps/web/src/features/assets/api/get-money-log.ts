import { api } from '@solpledge/contract/client'
import { infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import { call } from '../../../lib/api-client.ts'
import { nextPage, PAGE_SIZE } from '../../../lib/paging.ts'
import { useSignedInAddress } from '../../../lib/session.ts'
import { assetsKeys } from './keys.ts'

/** One page of the user's ledger entries for an asset, newest first. */
export const getMoneyLog = (coin: string, page: number) => call(api.moneyLog, { page, limit: PAGE_SIZE, coin })

export const moneyLogQueryOptions = (address: string | null, coin: string) =>
  infiniteQueryOptions({
    queryKey: assetsKeys.moneyLog(address ?? '', coin),
    queryFn: address ? ({ pageParam }) => getMoneyLog(coin, pageParam) : skipToken,
    initialPageParam: 1,
    getNextPageParam: nextPage,
  })

export function useMoneyLog(coin: string) {
  const address = useSignedInAddress()
  return useInfiniteQuery({ ...moneyLogQueryOptions(address, coin), enabled: coin !== '' })
}
