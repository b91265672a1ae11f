import { api, type DataOf, isId } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { noticeKeys } from './keys.ts'

export type Notice = DataOf<typeof api.noticeInfo>

/** One notice with its rich-text body, in the request's language (en when that translation is missing). */
export const getNotice = (id: string) => call(api.noticeInfo, { id })

/** Ids are positive integers up to bigint's largest: anything else is not asked for (it cannot exist). */
export const isNoticeId = (id: string | undefined): id is string => id !== undefined && isId(id)

export const noticeQueryOptions = (id: string | undefined, lang: string) =>
  queryOptions({
    queryKey: noticeKeys.detail(id ?? '', lang),
    queryFn: isNoticeId(id) ? () => getNotice(id) : skipToken,
  })

export function useNotice(id: string | undefined) {
  const { i18n } = useTranslation()
  useLiveRefresh('notice', noticeQueryOptions(id, i18n.language).queryKey, { enabled: id !== undefined })
  return useQuery(noticeQueryOptions(id, i18n.language))
}
