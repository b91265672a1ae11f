import { api, type DataOf, type LedgerEntry } from '@solpledge/contract'
import { infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import { call } from '../../../lib/api-client.ts'
import { useSignedInAddress } from './get-user-wallet.ts'
import { assetsKeys } from './keys.ts'

export const MONEY_LOG_PAGE_SIZE = 20

type MoneyLogPage = DataOf<typeof api.moneyLog>

/** One page of the user's ledger entries for an asset, newest first. */
export const getMoneyLog = (coin: string, page: number) =>
  call(api.moneyLog, { page, limit: MONEY_LOG_PAGE_SIZE, coin })

/** The page after `last`, or undefined when it was the last one. */
export const nextMoneyLogPage = ({ page, limit, total, list }: MoneyLogPage) =>
  list.length > 0 && page * limit < total ? page + 1 : undefined

/** All loaded entries in order; an entry that slid onto the next page because new ones arrived shows once. */
export function flattenMoneyLog(pages: readonly MoneyLogPage[]): LedgerEntry[] {
  const seen = new Set<string>()
  return pages.flatMap((page) => page.list).filter((entry) => !seen.has(entry.id) && Boolean(seen.add(entry.id)))
}

export const moneyLogQueryOptions = (address: string | null, coin: string) =>
  infiniteQueryOptions({
    queryKey: assetsKeys.moneyLog(address ?? '', coin),
    queryFn: address ? ({ pageParam }) => getMoneyLog(coin, pageParam) : skipToken,
    initialPageParam: 1,
    getNextPageParam: nextMoneyLogPage,
  })

export function useMoneyLog(coin: string) {
  const address = useSignedInAddress()
  return useInfiniteQuery({ ...moneyLogQueryOptions(address, coin), enabled: coin !== '' })
}
