import { type Kysely, sql } from 'kysely'

const money = sql`numeric(38, 0)`

/**
 * Withdrawals (docs/money.md): the amount (fee included) is locked at request; the sender job signs a
 * payout from the hot wallet and stores its signature, bytes and last valid block height before sending it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('withdrawals')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull().references('assets.code'))
    // Gross: what leaves the user's balance; the user receives amount - fee on chain.
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('fee', money, (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // One payout transaction belongs to one withdrawal, ever.
    .addColumn('signature', 'text', (c) => c.unique())
    .addColumn('wire_transaction', 'text')
    .addColumn('last_valid_block_height', money)
    // How many times an expired transaction was replaced by a new one.
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'withdrawals_status',
      sql`status in ('review', 'pending', 'sent', 'confirmed', 'failed', 'rejected')`,
    )
    .addCheckConstraint('withdrawals_fee_below_amount', sql`fee < amount`)
    // A withdrawal past 'pending' always has its prepared transaction stored (the crash-safety rule).
    .addCheckConstraint(
      'withdrawals_prepared',
      sql`status in ('review', 'pending', 'rejected') or (signature is not null and wire_transaction is not null
        and last_valid_block_height is not null)`,
    )
    .execute()
  await db.schema.createIndex('withdrawals_user_idx').on('withdrawals').columns(['user_id', 'id']).execute()
  // The sender's work list.
  await db.schema
    .createIndex('withdrawals_open_idx')
    .on('withdrawals')
    .column('id')
    .where(sql<boolean>`status in ('pending', 'sent')`)
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('withdrawals').execute()
}
