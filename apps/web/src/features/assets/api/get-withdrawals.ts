import { api, type Withdrawal } from '@solpledge/contract/client'
import { type InfiniteData, infiniteQueryOptions, skipToken, useInfiniteQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { nextPage, PAGE_SIZE, type Paged } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { assetsKeys, WITHDRAWAL_POLL_MS } from './keys.ts'

/** One page of the user's withdrawals of an asset, newest first. */
export const getWithdrawals = (coin: string, page: number) => call(api.withdrawList, { page, limit: PAGE_SIZE, coin })

/** Statuses of a withdrawal that is still on its way: it will change by itself. */
const IN_FLIGHT = new Set<Withdrawal['status']>(['review', 'pending', 'sent'])
export const isInFlight = (withdrawal: Pick<Withdrawal, 'status'>) => IN_FLIGHT.has(withdrawal.status)

export type WithdrawalPages = InfiniteData<Paged<Withdrawal>, unknown>

/** Poll while any loaded withdrawal is still on its way; stop once all are settled. */
export const withdrawalsPollInterval = (data: WithdrawalPages | undefined) =>
  data?.pages.some((page) => page.list.some(isInFlight)) ? WITHDRAWAL_POLL_MS : false

/** The status of each loaded withdrawal, by id. */
export type WithdrawalStatuses = ReadonlyMap<string, Withdrawal['status']>
export const statusById = (withdrawals: readonly Withdrawal[]): WithdrawalStatuses =>
  new Map(withdrawals.map((withdrawal) => [withdrawal.id, withdrawal.status]))

/** Whether a withdrawal seen before now has another status (new ones do not count). */
export const anyStatusChanged = (before: WithdrawalStatuses, after: WithdrawalStatuses) =>
  [...after].some(([id, status]) => before.has(id) && before.get(id) !== status)

export const withdrawalsQueryOptions = (address: string | null, coin: string) =>
  infiniteQueryOptions({
    queryKey: assetsKeys.withdrawals(address ?? '', coin),
    queryFn: address ? ({ pageParam }) => getWithdrawals(coin, pageParam) : skipToken,
    initialPageParam: 1,
    getNextPageParam: nextPage,
  })

/** The user's withdrawals of an asset; refreshed every few seconds while one is on its way and the page is visible. */
export function useWithdrawals(coin: string) {
  const address = useSignedInAddress()
  return useInfiniteQuery({
    ...withdrawalsQueryOptions(address, coin),
    enabled: coin !== '',
    refetchInterval: (query) => withdrawalsPollInterval(query.state.data),
  })
}
