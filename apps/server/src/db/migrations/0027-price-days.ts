import { type Kysely, sql } from 'kysely'

const money = sql`numeric(38, 0)`

/**
 * The {product} prices by day (docs/product.md#history): the valuation price is computed from a moving window of
 * trades and was never stored, so its history had nothing to read. The settlement job records, on each pass, the
 * valuation price and the quick trade's last price, one row per market and UTC day (a later pass of the same day
 * overwrites it: the day's latest).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('price_days')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    // USDT base units per whole token.
    .addColumn('valuation', money, (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('reference', 'trade')`))
    // Null before the market's first trade.
    .addColumn('last_price', money)
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('price_days_pk', ['symbol', 'day'])
    .execute()
}
