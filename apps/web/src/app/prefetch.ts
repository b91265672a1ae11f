import { priceQueryOptions } from '@/features/home/api/get-price.ts'
import { bannersQueryOptions } from '@/features/notice/api/get-banners.ts'
import { noticesQueryOptions } from '@/features/notice/api/get-notices.ts'
import { queryClient } from './query-client.ts'

/**
 * Asks for the public data of the screen the page opens on together with the strings and the config, instead of once
 * its first render has asked: the home screen then paints with its banners, notices and price in one go, without a
 * skeleton that collapses (no banners) or renders that follow one by one.
 */
export function prefetchScreenData(pathname: string, language: string) {
  if (pathname !== '/') return
  void queryClient.prefetchQuery(bannersQueryOptions(language))
  void queryClient.prefetchInfiniteQuery(noticesQueryOptions(language))
  void queryClient.prefetchQuery(priceQueryOptions())
}
