import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query'
import { flattenPages, nextPage, PAGE_SIZE, type Paged } from '@/lib/paging.ts'

/**
 * A paged console list (PAGE_SIZE at a time, 'load more' for the next page): the loaded items in order, and the query
 * for its state.
 */
export function useAdminPages<T extends { id: string }>(
  queryKey: QueryKey,
  fetchPage: (page: { page: number; limit: number }) => Promise<Paged<T>>,
) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage({ page: pageParam, limit: PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  })
  return { query, items: query.data ? flattenPages(query.data.pages) : [] }
}
