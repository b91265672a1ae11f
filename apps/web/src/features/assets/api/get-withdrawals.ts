import { api, type LiveEvent, type Withdrawal } from '@solpledge/contract/client'
import {
  type InfiniteData,
  infiniteQueryOptions,
  skipToken,
  useInfiniteQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { refetch, refetchSoon, useLiveTopic } from '@/lib/live/use-live.ts'
import { nextPage, PAGE_SIZE, type Paged } from '@/lib/paging.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { assetsKeys } from './keys.ts'

/** One page of the user's withdrawals of an asset, newest first. */
export const getWithdrawals = (coin: string, page: number) => call(api.withdrawList, { page, limit: PAGE_SIZE, coin })

export type WithdrawalPages = InfiniteData<Paged<Withdrawal>, unknown>

type WithdrawalEvent = Extract<LiveEvent<'user'>, { kind: 'withdrawal' }>

/**
 * The loaded pages with the withdrawal of a live event in its new state (status, signature, reason); null when none
 * of them holds it (a new withdrawal: the list is read again).
 */
export function withWithdrawal(data: WithdrawalPages, event: WithdrawalEvent): WithdrawalPages | null {
  let found = false
  const pages = data.pages.map((page) => ({
    ...page,
    list: page.list.map((withdrawal) => {
      if (withdrawal.id !== event.id) return withdrawal
      found = true
      const { status, signature, reason, updated_at } = event
      return { ...withdrawal, status, signature, reason, updated_at }
    }),
  }))
  return found ? { ...data, pages } : null
}

export const withdrawalsQueryOptions = (address: string | null, coin: string) =>
  infiniteQueryOptions({
    queryKey: assetsKeys.withdrawals(address ?? '', coin),
    queryFn: address ? ({ pageParam }) => getWithdrawals(coin, pageParam) : skipToken,
    initialPageParam: 1,
    getNextPageParam: nextPage,
  })

/** The user's withdrawals of an asset; each moves through its statuses as the live channel says. */
export function useWithdrawals(coin: string) {
  const address = useSignedInAddress()
  const queryClient = useQueryClient()
  const options = withdrawalsQueryOptions(address, coin)
  useLiveTopic(
    'user',
    {
      onEvent: (event) => {
        if (event.kind !== 'withdrawal') return
        const data = queryClient.getQueryData(options.queryKey)
        const next = data && withWithdrawal(data, event)
        if (next) queryClient.setQueryData(options.queryKey, next as typeof data)
        else if (data) refetchSoon(queryClient, options.queryKey)
      },
      onSnapshot: () => refetch(queryClient, options.queryKey),
    },
    address !== null && coin !== '',
  )
  return useInfiniteQuery({ ...options, enabled: coin !== '' })
}
