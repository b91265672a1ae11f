import { type Kysely, sql } from 'kysely'

const money = sql`numeric(38, 0)`

/**
 * Nodes bought by users (paid in USDT from the asset balance). The price and benefits are copied from the level's
 * configuration at purchase: a later configuration change never alters a node already sold.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_nodes')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('level', 'text', (c) => c.notNull())
    // The price paid, USDT base units.
    .addColumn('price_usdt', money, (c) => c.notNull().check(sql`price_usdt > 0`))
    .addColumn('power_bonus_bps', 'integer', (c) => c.notNull())
    .addColumn('dividend_weight', 'integer', (c) => c.notNull())
    // Node-pool dividends received so far, in {product} base units.
    .addColumn('dividends', money, (c) => c.notNull().defaultTo(0).check(sql`dividends >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('user_nodes_user_idx').on('user_nodes').columns(['user_id', 'id']).execute()
  // Sold count per level.
  await db.schema.createIndex('user_nodes_level_idx').on('user_nodes').column('level').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_nodes').execute()
}
