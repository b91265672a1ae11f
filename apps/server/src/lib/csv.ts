/** Rows per query of an export: large enough to be few queries, small enough to hold little memory. */
export const EXPORT_PAGE = 500

/**
 * Every row of a paged list, page after page until a short one, each row once: a row added at the head of a
 * newest-first list while the file is written pushes the rows after it one page further, so one seen already is
 * skipped by its id.
 */
export async function* allPages<T extends { id: string }>(
  pageOf: (page: number, limit: number) => Promise<readonly T[]>,
): AsyncGenerator<T> {
  const seen = new Set<string>()
  for (let page = 1; ; page++) {
    const rows = await pageOf(page, EXPORT_PAGE)
    for (const row of rows) {
      if (seen.has(row.id)) continue
      seen.add(row.id)
      yield row
    }
    if (rows.length < EXPORT_PAGE) return
  }
}
