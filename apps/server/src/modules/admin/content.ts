// Notices and banners in the operator console: every row whatever its state, with all its translations; saves replace
// a row's translations as a whole. The app's reads (modules/notice) pick what is published.
import { type AdminBanner, type AdminNotice, Code, LANGUAGES } from '@solpledge/contract'
import type { Selectable } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { BannersTable, NoticesTable } from '../../db/schema.ts'
import { AppError, invalid } from '../../lib/app-error.ts'
import { pageOf } from '../../lib/paging.ts'
import { sanitizeRichText } from '../../lib/rich-text.ts'
import { audit } from './audit.ts'
import type { AdminCaller } from './session.ts'

type Lang = AdminNotice['translations'][number]['lang']
type NoticeInput = {
  id?: string | undefined
  translations: AdminNotice['translations']
  published_at?: string | undefined
  visible: boolean
  is_event: boolean
}
type BannerInput = Omit<AdminBanner, 'id' | 'slug' | 'created_at'> & { id?: string | undefined }

/** English is the fallback of every read, so it must be there; each language once. */
export function checkTexts(translations: { lang: Lang; title: string }[]) {
  const langs = translations.map((t) => t.lang)
  if (!langs.includes('en') || new Set(langs).size !== langs.length) throw invalid('admin.noticeNeedsEnglish')
  if (translations.some((t) => t.title.trim() === '')) throw invalid('error.invalidParams', { detail: 'title' })
}

const byLang = (a: { lang: string }, b: { lang: string }) =>
  LANGUAGES.indexOf(a.lang as Lang) - LANGUAGES.indexOf(b.lang as Lang)

async function presentNotices(db: Database, rows: Selectable<NoticesTable>[]): Promise<AdminNotice[]> {
  if (rows.length === 0) return []
  const ids = rows.map((row) => row.id)
  const texts = await db.selectFrom('notice_translations').selectAll().where('notice_id', 'in', ids).execute()
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    is_event: row.is_event,
    visible: row.visible,
    published_at: row.published_at.toISOString(),
    created_at: row.created_at.toISOString(),
    translations: texts
      .filter((t) => t.notice_id === row.id)
      .sort(byLang)
      .map((t) => ({ lang: t.lang as Lang, title: t.title, body: t.body })),
  }))
}

async function noticeById(db: Database, id: string): Promise<AdminNotice> {
  const row = await db.selectFrom('notices').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'notice.notFound')
  return (await presentNotices(db, [row]))[0] as AdminNotice
}

export async function adminNotices(db: Database, query: { page: number; limit: number }) {
  const { rows, total } = await pageOf(db.selectFrom('notices'), query, (qb) =>
    qb.selectAll().orderBy('published_at', 'desc').orderBy('id', 'desc'),
  )
  return { list: await presentNotices(db, rows), total, page: query.page, limit: query.limit }
}

/** Creates or replaces a notice; the event flag moves to it from any other notice. */
export async function saveNotice(db: Database, caller: AdminCaller, input: NoticeInput): Promise<AdminNotice> {
  checkTexts(input.translations)
  const id = await db.transaction().execute(async (trx) => {
    const before = input.id ? await noticeById(trx, input.id) : null
    if (input.is_event)
      await trx
        .updateTable('notices')
        .set({ is_event: false })
        .where('is_event', '=', true)
        .$if(input.id !== undefined, (qb) => qb.where('id', '<>', input.id as string))
        .execute()
    const fields = {
      visible: input.visible,
      is_event: input.is_event,
      ...(input.published_at ? { published_at: new Date(input.published_at) } : {}),
    }
    const id = input.id
      ? input.id
      : (await trx.insertInto('notices').values(fields).returning('id').executeTakeFirstOrThrow()).id
    if (input.id) {
      await trx.updateTable('notices').set(fields).where('id', '=', id).execute()
      await trx.deleteFrom('notice_translations').where('notice_id', '=', id).execute()
    }
    await trx
      .insertInto('notice_translations')
      .values(
        input.translations.map((t) => ({
          notice_id: id,
          lang: t.lang,
          title: t.title.trim(),
          body: sanitizeRichText(t.body),
        })),
      )
      .execute()
    await audit(trx, caller, 'notice.save', `notice:${id}`, { before, after: input })
    return id
  })
  return noticeById(db, id)
}

export async function publishNotice(db: Database, caller: AdminCaller, id: string, visible: boolean) {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('notices')
      .set({ visible })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst()
    if (!row) throw new AppError(Code.NOT_FOUND, 'notice.notFound')
    await audit(trx, caller, visible ? 'notice.publish' : 'notice.unpublish', `notice:${id}`, { visible })
  })
  return noticeById(db, id)
}

async function presentBanners(db: Database, rows: Selectable<BannersTable>[]): Promise<AdminBanner[]> {
  if (rows.length === 0) return []
  const ids = rows.map((row) => row.id)
  const texts = await db.selectFrom('banner_translations').selectAll().where('banner_id', 'in', ids).execute()
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    type: row.type,
    sort: row.sort,
    link: row.link,
    visible: row.visible,
    created_at: row.created_at.toISOString(),
    translations: texts
      .filter((t) => t.banner_id === row.id)
      .sort(byLang)
      .map((t) => ({ lang: t.lang as Lang, title: t.title, image_url: t.image_url })),
  }))
}

async function bannerById(db: Database, id: string): Promise<AdminBanner> {
  const row = await db.selectFrom('banners').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'admin.bannerNotFound')
  return (await presentBanners(db, [row]))[0] as AdminBanner
}

export async function adminBanners(db: Database, query: { type?: number | undefined; page: number; limit: number }) {
  const base = db
    .selectFrom('banners')
    .$if(query.type !== undefined, (qb) => qb.where('type', '=', query.type as number))
  const { rows, total } = await pageOf(base, query, (qb) =>
    qb.selectAll().orderBy('type').orderBy('sort').orderBy('id'),
  )
  return { list: await presentBanners(db, rows), total, page: query.page, limit: query.limit }
}

export async function saveBanner(db: Database, caller: AdminCaller, input: BannerInput): Promise<AdminBanner> {
  checkTexts(input.translations)
  const id = await db.transaction().execute(async (trx) => {
    const before = input.id ? await bannerById(trx, input.id) : null
    const fields = { type: input.type, sort: input.sort, link: input.link, visible: input.visible }
    const id = input.id
      ? input.id
      : (await trx.insertInto('banners').values(fields).returning('id').executeTakeFirstOrThrow()).id
    if (input.id) {
      await trx.updateTable('banners').set(fields).where('id', '=', id).execute()
      await trx.deleteFrom('banner_translations').where('banner_id', '=', id).execute()
    }
    await trx
      .insertInto('banner_translations')
      .values(
        input.translations.map((t) => ({ banner_id: id, lang: t.lang, title: t.title.trim(), image_url: t.image_url })),
      )
      .execute()
    await audit(trx, caller, 'banner.save', `banner:${id}`, { before, after: input })
    return id
  })
  return bannerById(db, id)
}

export async function publishBanner(db: Database, caller: AdminCaller, id: string, visible: boolean) {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('banners')
      .set({ visible })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst()
    if (!row) throw new AppError(Code.NOT_FOUND, 'admin.bannerNotFound')
    await audit(trx, caller, visible ? 'banner.publish' : 'banner.unpublish', `banner:${id}`, { visible })
  })
  return bannerById(db, id)
}
