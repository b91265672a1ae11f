import { type SelectQueryBuilder, sql } from 'kysely'

export interface PageQuery {
  /** 1-based. */
  page: number
  limit: number
}

/**
 * One page of a query's rows and how many rows it has in all, read together. `base` holds the filters; `rows` adds
 * the columns and the order of the page.
 */
export async function pageOf<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, object>,
  query: PageQuery,
  rows: (qb: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
): Promise<{ rows: O[]; total: number }> {
  const [list, count] = await Promise.all([
    rows(base)
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows: list as O[], total: Number((count as { n: string }).n) }
}

/** A list route's answer: one page of rows (`pageOf`), each presented, with the page's place. */
export async function listPage<DB, TB extends keyof DB, O, T>(
  base: SelectQueryBuilder<DB, TB, object>,
  query: PageQuery,
  rows: (qb: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  present: (row: O) => T,
): Promise<{ list: T[]; total: number; page: number; limit: number }> {
  const found = await pageOf(base, query, rows)
  return { list: found.rows.map(present), total: found.total, page: query.page, limit: query.limit }
}
