import { type Kysely, sql } from 'kysely'

/** Money in base units: integers up to 38 digits, never floating point. */
const money = sql`numeric(38, 0)`

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('assets')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull().check(sql`decimals between 0 and 18`))
    .addColumn('mint', 'text')
    .addColumn('is_user_recharge', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('withdraw_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('min_atm_money', money, (c) => c.notNull().defaultTo(0))
    .addColumn('withdraw_fee', money, (c) => c.notNull().defaultTo(0))
    .addColumn('review_threshold', money)
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull().references('assets.code'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('balance', money, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The service recognises this constraint by name and answers 'insufficient balance'. System accounts (no user)
    // may go negative: 'chain' mirrors what came in from the chain, 'emission' what was minted.
    .addCheckConstraint('ledger_accounts_user_balance_nonnegative', sql`user_id is null or balance >= 0`)
    .addCheckConstraint('ledger_accounts_user_kind', sql`user_id is null or kind in ('available', 'locked')`)
    .execute()
  // One account per (user, asset, kind) and one per (asset, kind) for system accounts: NULLs are distinct in a plain
  // unique index, hence two partial ones.
  await db.schema
    .createIndex('ledger_accounts_user_key')
    .unique()
    .on('ledger_accounts')
    .columns(['user_id', 'asset', 'kind'])
    .where(sql<boolean>`user_id is not null`)
    .execute()
  await db.schema
    .createIndex('ledger_accounts_system_key')
    .unique()
    .on('ledger_accounts')
    .columns(['asset', 'kind'])
    .where(sql<boolean>`user_id is null`)
    .execute()

  // No foreign keys here: `transfer` only stores a transfer whose two balance updates each hit exactly one account of
  // its asset, and a foreign key check would lock (FOR KEY SHARE) the asset row and both account rows on every
  // transfer, making the asset row a point of contention for all of them.
  await db.schema
    .createTable('ledger_transfers')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('debit_account_id', 'bigint', (c) => c.notNull())
    .addColumn('credit_account_id', 'bigint', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('reference', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('ledger_transfers_distinct_accounts', sql`debit_account_id <> credit_account_id`)
    .execute()
  // Statements list an account's transfers newest first.
  await db.schema
    .createIndex('ledger_transfers_debit_idx')
    .on('ledger_transfers')
    .columns(['debit_account_id', 'id'])
    .execute()
  await db.schema
    .createIndex('ledger_transfers_credit_idx')
    .on('ledger_transfers')
    .columns(['credit_account_id', 'id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['ledger_transfers', 'ledger_accounts', 'assets']) await db.schema.dropTable(table).execute()
}
