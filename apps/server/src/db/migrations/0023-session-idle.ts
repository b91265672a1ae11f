import { type Kysely, sql } from 'kysely'

/**
 * Sessions end after an idle time as well as at their absolute expiry: `last_seen_at` is when the session was last
 * used (written at most once per few minutes, modules/auth/session.ts). A sign-in message may be asked for without an
 * address (a wallet's signIn fills it in): `login_nonces.address` is then null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .alterTable('login_nonces')
    .alterColumn('address', (c) => c.dropNotNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db
    .deleteFrom('login_nonces' as never)
    .where('address' as never, 'is', null)
    .execute()
  await db.schema
    .alterTable('login_nonces')
    .alterColumn('address', (c) => c.setNotNull())
    .execute()
  await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute()
}
