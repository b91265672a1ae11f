import { api, type DataOf } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { noticeKeys } from './keys.ts'

export type Banner = DataOf<typeof api.bannerList>['list'][number]

/** The home carousel's banners (docs/product.md#home: page 1, limit 10, type 1), in display order. */
export const getBanners = async () => (await call(api.bannerList, { page: 1, limit: 10, type: 1 })).list

export const bannersQueryOptions = (lang: string) =>
  queryOptions({ queryKey: noticeKeys.banners(lang), queryFn: getBanners, staleTime: 60_000 })

export function useBanners() {
  const { i18n } = useTranslation()
  useLiveRefresh('notice', bannersQueryOptions(i18n.language).queryKey)
  return useQuery(bannersQueryOptions(i18n.language))
}
