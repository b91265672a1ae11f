import { api, type DataOf } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { noticeKeys } from './keys.ts'

export type EconomicNotice = DataOf<typeof api.economicNotices>['list'][number]

/**
 * The changes of what the platform pays or takes that the operators decided: announced ones before they apply (their
 * notice period runs), then those in force for less than a week (docs/economics.md). Public; the same in every language.
 */
export const economicNoticesQueryOptions = () =>
  queryOptions({
    queryKey: noticeKeys.changes(),
    queryFn: async () => (await call(api.economicNotices, {})).list,
    staleTime: 60_000,
  })

/** Read again when a change is announced or applied (the notice topic). */
export function useEconomicNotices() {
  useLiveRefresh('notice', economicNoticesQueryOptions().queryKey)
  return useQuery(economicNoticesQueryOptions())
}
