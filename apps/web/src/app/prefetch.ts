import type { ClientConfig } from '@solpledge/contract/client'
import { liabilitiesRootQueryOptions } from '@/features/assets/api/get-liabilities.ts'
import { solvencyQueryOptions } from '@/features/assets/api/get-solvency.ts'
import { priceQueryOptions } from '@/features/home/api/get-price.ts'
import { bannersQueryOptions } from '@/features/notice/api/get-banners.ts'
import { noticesQueryOptions } from '@/features/notice/api/get-notices.ts'
import { pledgeConfigQueryOptions } from '@/features/pledge/api/get-pledge-config.ts'
import { queryClient } from './query-client.ts'

/**
 * Asks for the public data of the screen the page opens on (its route's pattern, from preloadScreen) together with its
 * chunk and the strings, instead of once its first render has asked; resolves when it is here (or has failed). main.tsx
 * waits for it, for a while, so the screen paints with its data in one go: no skeleton that collapses (a home without
 * banners) and no renders that follow one by one, each moving what is below.
 */
export function prefetchScreenData(
  screen: string | undefined,
  language: string,
  config: ClientConfig,
): Promise<unknown> {
  switch (screen) {
    case '/':
      return Promise.all([
        queryClient.prefetchQuery(bannersQueryOptions(language)),
        queryClient.prefetchInfiniteQuery(noticesQueryOptions(language)),
        queryClient.prefetchQuery(priceQueryOptions()),
      ])
    case '/pledge':
      return queryClient.prefetchQuery(pledgeConfigQueryOptions(config.productSymbol))
    case '/assets':
      return Promise.all([
        queryClient.prefetchQuery(solvencyQueryOptions()),
        queryClient.prefetchQuery(liabilitiesRootQueryOptions()),
      ])
    default:
      return Promise.resolve()
  }
}
