import { api, type DataOf } from '@solpledge/contract/client'
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { noticeKeys } from './keys.ts'

/** Notices per page (docs/product.md#notices). */
export const NOTICE_PAGE_SIZE = 10

export type NoticePage = DataOf<typeof api.noticeList>
export type NoticeSummary = NoticePage['list'][number]

/** One page of published notices, newest first, in the request's language (en when a translation is missing). */
export const getNotices = (page: number) => call(api.noticeList, { page, limit: NOTICE_PAGE_SIZE })

/** The page after `last`, or undefined when it was the last one. */
export const nextNoticePage = ({ page, limit, total, list }: NoticePage) =>
  list.length > 0 && page * limit < total ? page + 1 : undefined

export const noticesQueryOptions = (lang: string) =>
  infiniteQueryOptions({
    queryKey: noticeKeys.list(lang),
    queryFn: ({ pageParam }) => getNotices(pageParam),
    initialPageParam: 1,
    getNextPageParam: nextNoticePage,
  })

/** The notice list, more pages on demand; public (no session needed). */
export function useNotices() {
  const { i18n } = useTranslation()
  useLiveRefresh('notice', noticesQueryOptions(i18n.language).queryKey)
  return useInfiniteQuery(noticesQueryOptions(i18n.language))
}

/** All loaded notices in order; one that slid onto the next page because a newer one was published shows once. */
export function flattenNotices(pages: readonly NoticePage[]): NoticeSummary[] {
  const seen = new Set<string>()
  return pages.flatMap((page) => page.list).filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id)))
}
