/** How many entries a paged list (money log, withdrawals, stakes, deposits, output records) loads at a time. */
export const PAGE_SIZE = 20

/** One page of a paged list as the API sends it. */
export interface Paged<T> {
  list: readonly T[]
  total: number
  page: number
  limit: number
}

/** The page after `last`, or undefined when it was the last one. */
export const nextPage = ({ page, limit, total, list }: Paged<unknown>) =>
  list.length > 0 && page * limit < total ? page + 1 : undefined

/**
 * All loaded items in order; an item that slid onto the next page because new ones arrived shows once. `key` tells
 * items apart (default: their id; the two entries of one ledger transfer share an id and differ by account).
 */
export function flattenPages<T extends { id: string }>(
  pages: readonly Paged<T>[],
  key: (item: T) => string = (item) => item.id,
): T[] {
  const seen = new Set<string>()
  return pages.flatMap((page) => page.list).filter((item) => !seen.has(key(item)) && Boolean(seen.add(key(item))))
}
