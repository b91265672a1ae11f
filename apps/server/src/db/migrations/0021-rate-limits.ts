import { type Kysely, sql } from 'kysely'

/**
 * The login rate limits' counters, shared by every server instance (lib/rate-limit.ts): one row per (route, client
 * address) and fixed window. Unlogged: a count is not worth a WAL write and an fsync per login call, and a crash that
 * empties the table only forgets the current windows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unlogged table rate_limit_hits (
    key text collate "C" primary key,
    hits integer not null,
    reset_at timestamptz not null
  )`.execute(db)
  await db.schema.createIndex('rate_limit_hits_reset_idx').on('rate_limit_hits').column('reset_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limit_hits').execute()
}
