import { type Kysely, sql } from 'kysely'

const languageCheck = (column: string) => sql`${sql.ref(column)} in ('en', 'zh', 'ja', 'ko', 'vi')`
/** Links and images: a path of this site ('/notice/detail/1', '/banners/a.svg') or an https URL; never javascript:. */
const urlCheck = (column: string) => sql`${sql.ref(column)} ~ '^(/[^/\\\\]|/$|https://)'`

/**
 * Notices and banners (docs/architecture.md, "Notices and banners"). Each has one row of language-neutral facts and
 * one translation row per language; the API serves the request's language and falls back to en.
 *
 * `slug` is an optional stable name, unique, so that a seed (or an import) can add its rows exactly once.
 * A row is shown when `visible` and its `published_at` (notices) has come; the operator schedules by setting it later.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notices')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.unique())
    // The event notice (docs/product.md#home), opened as a dialog on the home screen. At most one carries the flag.
    .addColumn('is_event', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('visible', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('published_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('notices_list_idx')
    .on('notices')
    .columns(['published_at desc', 'id desc'])
    .where(sql.ref('visible'), '=', true)
    .execute()
  await sql`create unique index notices_one_event on notices ((true)) where is_event`.execute(db)

  await db.schema
    .createTable('notice_translations')
    .addColumn('notice_id', 'bigint', (c) => c.notNull().references('notices.id').onDelete('cascade'))
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().check(sql`length(btrim(title)) between 1 and 200`))
    // Rich text: a restricted subset of HTML (paragraphs, headings, lists, emphasis, links, images), rendered by the
    // web app through an allow-list: never injected as HTML.
    .addColumn('body', 'text', (c) => c.notNull().check(sql`length(body) <= 100000`))
    .addPrimaryKeyConstraint('notice_translations_pk', ['notice_id', 'lang'])
    .addCheckConstraint('notice_translations_lang', languageCheck('lang'))
    .execute()

  await db.schema
    .createTable('banners')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.unique())
    // Where the banner shows: 1 the home carousel (docs/product.md#home).
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
    // Order in the carousel: smaller first, then older first.
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    // Where a tap leads: a path of the app or an https URL; null for none.
    .addColumn('link', 'text')
    .addColumn('visible', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('banners_link', sql`link is null or ${urlCheck('link')}`)
    .execute()
  await db.schema
    .createIndex('banners_list_idx')
    .on('banners')
    .columns(['type', 'sort', 'id'])
    .where(sql.ref('visible'), '=', true)
    .execute()

  await db.schema
    .createTable('banner_translations')
    .addColumn('banner_id', 'bigint', (c) => c.notNull().references('banners.id').onDelete('cascade'))
    .addColumn('lang', 'text', (c) => c.notNull())
    // The banner's caption and image alternative text.
    .addColumn('title', 'text', (c) => c.notNull().check(sql`length(btrim(title)) between 1 and 200`))
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('banner_translations_pk', ['banner_id', 'lang'])
    .addCheckConstraint('banner_translations_lang', languageCheck('lang'))
    .addCheckConstraint('banner_translations_image', urlCheck('image_url'))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('banner_translations').execute()
  await db.schema.dropTable('banners').execute()
  await db.schema.dropTable('notice_translations').execute()
  await db.schema.dropTable('notices').execute()
}
