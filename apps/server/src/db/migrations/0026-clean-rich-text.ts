import { type Kysely, sql } from 'kysely'
import { sanitizeRichText } from '../../lib/rich-text.ts'

/**
 * Rich-text bodies are sanitized when they are saved (lib/rich-text.ts): this cleans the ones stored before, so that
 * every stored body is clean, and one that shows nothing is empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, key] of [
    ['notice_translations', 'notice_id'],
    ['campaign_translations', 'campaign_id'],
  ] as const) {
    const rows = await sql<{ id: string; lang: string; body: string }>`
      select ${sql.ref(key)}::text as id, lang, body from ${sql.table(table)}`.execute(db)
    for (const row of rows.rows) {
      const body = sanitizeRichText(row.body)
      if (body !== row.body)
        await sql`update ${sql.table(table)} set body = ${body}
          where ${sql.ref(key)} = ${row.id}::bigint and lang = ${row.lang}`.execute(db)
    }
  }
}

/** Nothing to undo: a clean body shows what the raw one showed. */
export async function down(): Promise<void> {}
