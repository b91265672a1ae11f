import { type Kysely, sql } from 'kysely'

/**
 * Idempotency-Key (docs/money.md): one row per (caller, key) of a money call. The row is claimed `running`
 * before the handler runs and holds the answer once it is `done`, so a repeat (also from another server instance) is
 * answered from here and never runs the handler again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    // 'user:<id>', 'admin:<address>' or 'operator': keys are per caller.
    .addColumn('caller', 'text', (c) => c.notNull())
    // Compared as bytes: a key is an opaque identifier.
    .addColumn('key', sql`text collate "C"`, (c) => c.notNull())
    // sha256 of the route path, the path parameters and the canonical body.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    // The stored answer: HTTP status and the response body exactly as it was sent.
    .addColumn('status', 'integer')
    .addColumn('response', 'text')
    // When the current attempt claimed the key (a takeover of a dead attempt sets it again).
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['caller', 'key'])
    .addCheckConstraint(
      'idempotency_keys_state',
      sql`(state = 'running' and status is null and response is null)
        or (state = 'done' and status is not null and response is not null)`,
    )
    .execute()
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute()
}
