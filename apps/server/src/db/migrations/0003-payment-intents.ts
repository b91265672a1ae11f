import { type Kysely, sql } from 'kysely'

/**
 * Payment intents (docs/design.md#inflows-payment-intents): one mechanism for every inflow from the chain (top-up now;
 * stake and node later).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_intents')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull().references('assets.code'))
    .addColumn('amount', 'numeric(38, 0)', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    // One transaction pays one intent, ever.
    .addColumn('signature', 'text', (c) => c.unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('fulfilled_at', 'timestamptz')
    .addCheckConstraint('payment_intents_status', sql`status in ('pending', 'fulfilled', 'expired')`)
    .addCheckConstraint('payment_intents_fulfilled', sql`(status = 'fulfilled') = (signature is not null)`)
    .execute()
  await db.schema.createIndex('payment_intents_user_idx').on('payment_intents').columns(['user_id', 'id']).execute()
  await db.schema
    .createIndex('payment_intents_pending_idx')
    .on('payment_intents')
    .column('expires_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_intents').execute()
}
