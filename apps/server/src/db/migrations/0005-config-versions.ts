import { type Kysely, sql } from 'kysely'

/**
 * Business configuration, versioned: every change is a new row with who made it, the newest row is in force. Replaces
 * the never-used key/value `settings` table of 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('settings').execute()
  await db.schema
    .createTable('config_versions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('config_versions').execute()
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}
