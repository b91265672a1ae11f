import { type Kysely, sql } from 'kysely'

const money = sql`numeric(38, 0)`

/**
 * Quick trade (docs/trade.md): one row per market with the counter that tells a server whether its in-memory book is
 * current, the orders (the book is rebuilt from the pending ones) and the fills (the trades: candles and 24 h figures).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trade_markets')
    // The traded asset ({product}); the quote asset is USDT.
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    // +1 by every transaction that changes the book: a server whose book was built at another value rebuilds it.
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_price', money)
    // The time of the newest batch of the market: a batch's time never goes back (candles follow the fill ids).
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('trade_orders')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('order_sn', 'text', (c) => c.notNull().unique())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // Limit price, USDT base units per whole token; null for a swap.
    .addColumn('price', money)
    // {product} base units: ordered (limit) or swapped (swap).
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('filled', money, (c) => c.notNull().defaultTo(0))
    // USDT exchanged by the fills, before fees.
    .addColumn('quote', money, (c) => c.notNull().defaultTo(0))
    // In the asset received (USDT for a sell, {product} for a buy): the fees and what the user received net of them.
    .addColumn('fee', money, (c) => c.notNull().defaultTo(0))
    .addColumn('received', money, (c) => c.notNull().defaultTo(0))
    // What the order still holds in the user's locked account, in the asset given: returned when it ends.
    .addColumn('locked', money, (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('client_order_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('trade_orders_side', sql`side in ('buy', 'sell')`)
    .addCheckConstraint('trade_orders_kind', sql`(kind = 'limit' and price > 0) or (kind = 'swap' and price is null)`)
    .addCheckConstraint('trade_orders_status', sql`status in ('pending', 'completed', 'cancelled')`)
    .addCheckConstraint(
      'trade_orders_figures',
      sql`filled >= 0 and filled <= amount and quote >= 0 and fee >= 0 and received >= 0 and locked >= 0`,
    )
    // Only a pending order holds funds.
    .addCheckConstraint('trade_orders_locked', sql`status = 'pending' or locked = 0`)
    .execute()
  // A retry with the same client key finds the first order.
  await db.schema
    .createIndex('trade_orders_client_key')
    .unique()
    .on('trade_orders')
    .columns(['user_id', 'client_order_id'])
    .where(sql<boolean>`client_order_id is not null`)
    .execute()
  // My orders of a status, newest first.
  await db.schema.createIndex('trade_orders_user_idx').on('trade_orders').columns(['user_id', 'status', 'id']).execute()
  // The book is rebuilt from these, in id (time) order.
  await db.schema
    .createIndex('trade_orders_pending_idx')
    .on('trade_orders')
    .columns(['symbol', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute()

  await db.schema
    .createTable('trade_fills')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('maker_order_id', 'bigint', (c) => c.notNull().references('trade_orders.id'))
    .addColumn('taker_order_id', 'bigint', (c) => c.notNull().references('trade_orders.id'))
    .addColumn('maker_user_id', 'bigint', (c) => c.notNull())
    .addColumn('taker_user_id', 'bigint', (c) => c.notNull())
    // The taker's side: 'buy' when the taker bought from a resting sell order.
    .addColumn('taker_side', 'text', (c) => c.notNull())
    // The maker's price.
    .addColumn('price', money, (c) => c.notNull().check(sql`price > 0`))
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('quote', money, (c) => c.notNull())
    // Each side's fee, in the asset that side received.
    .addColumn('maker_fee', money, (c) => c.notNull())
    .addColumn('taker_fee', money, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('trade_fills_taker_side', sql`taker_side in ('buy', 'sell')`)
    // A taker meets a resting order at most once.
    .addUniqueConstraint('trade_fills_pair', ['maker_order_id', 'taker_order_id'])
    .execute()
  await db.schema.createIndex('trade_fills_taker_idx').on('trade_fills').columns(['taker_order_id', 'id']).execute()
  // Candles and 24 h figures.
  await db.schema.createIndex('trade_fills_time_idx').on('trade_fills').columns(['symbol', 'created_at']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['trade_fills', 'trade_orders', 'trade_markets']) await db.schema.dropTable(table).execute()
}
