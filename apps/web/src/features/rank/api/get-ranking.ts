import { api, type RankType } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { domainKeys } from '@/lib/query-keys.ts'
import { useSignedInAddress } from '@/lib/session.ts'

export const rankKeys = {
  board: (address: string, type: RankType) => [...domainKeys.rank, type, address] as const,
}

/** This month's ranking of a tab: the top 30, the user's own position and the next update time. */
export const getRanking = (type: RankType) => call(api.ranking, { type })

export const rankingQueryOptions = (address: string | null, type: RankType) =>
  queryOptions({ queryKey: rankKeys.board(address ?? '', type), queryFn: address ? () => getRanking(type) : skipToken })

export function useRanking(type: RankType) {
  const address = useSignedInAddress()
  useLiveRefresh('rank', domainKeys.rank)
  return useQuery(rankingQueryOptions(address, type))
}
