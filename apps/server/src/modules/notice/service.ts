// Notices and banners (docs/product.md#notices, docs/product.md#home): operator content stored per language. Every read
// picks, per row, the translation in the request's language, else en, else the first other language there is: a notice
// is never hidden for want of a translation, and the answer says which language it is in.
import { type api, Code, type DataOf, type Language } from '@solpledge/contract'
import { type Expression, type SqlBool, sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { AppError } from '../../lib/app-error.ts'

type NoticeList = DataOf<typeof api.noticeList>
type NoticeInfo = DataOf<typeof api.noticeInfo>
type BannerList = DataOf<typeof api.bannerList>

/** Order of preference of a translation row's `lang`: the requested language, then en, then the others by name. */
const preference = (lang: Language) => sql`case lang when ${lang} then 0 when 'en' then 1 else 2 end, lang`

/** Published: visible and its publication time has come. */
const published = sql<SqlBool>`n.visible and n.published_at <= now()` as Expression<SqlBool>

/** Visible notices with the preferred translation's lang and title (and body when asked), newest first. */
function notices(db: Database, lang: Language) {
  return db
    .selectFrom('notices as n')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('notice_translations')
          .select(['lang', 'title'])
          .whereRef('notice_id', '=', 'n.id')
          .orderBy(preference(lang))
          .limit(1)
          .as('tr'),
      (join) => join.onTrue(),
    )
    .where(published)
}

export async function listNotices(
  db: Database,
  lang: Language,
  { page, limit }: { page: number; limit: number },
): Promise<NoticeList> {
  const [rows, count, event] = await Promise.all([
    notices(db, lang)
      .select(['n.id', 'n.is_event', 'n.published_at', 'tr.lang', 'tr.title'])
      .orderBy('n.published_at', 'desc')
      .orderBy('n.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    notices(db, lang)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
    notices(db, lang).select(['n.id', 'tr.title']).where('n.is_event', '=', true).executeTakeFirst(),
  ])
  return {
    list: rows.map((row) => ({
      id: row.id,
      title: row.title,
      lang: row.lang,
      is_event: row.is_event,
      published_at: row.published_at.toISOString(),
    })),
    total: Number(count.n),
    page,
    limit,
    event: event ? { id: event.id, title: event.title } : null,
  }
}

/**
 * One published notice with its body; Code.NOT_FOUND when there is none of that id (or it is hidden or scheduled).
 * Title and body fall back independently: a translation with a title but an empty body takes its body from the next
 * preferred language that has one (en first), and `body_lang` says which. A body that shows nothing is stored empty
 * (lib/rich-text.ts sanitizes every body when it is saved), and served as stored.
 */
export async function noticeInfo(db: Database, lang: Language, id: string): Promise<NoticeInfo> {
  const row = await notices(db, lang)
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('notice_translations')
          .select(['lang as body_lang', 'body'])
          .whereRef('notice_id', '=', 'n.id')
          .orderBy(sql`body = ''`)
          .orderBy(preference(lang))
          .limit(1)
          .as('b'),
      (join) => join.onTrue(),
    )
    .select(['n.id', 'n.is_event', 'n.published_at', 'tr.lang', 'tr.title', 'b.body', 'b.body_lang'])
    .where('n.id', '=', id)
    .executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'notice.notFound')
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    lang: row.lang,
    body_lang: row.body_lang,
    is_event: row.is_event,
    published_at: row.published_at.toISOString(),
  }
}

/** Visible banners of a type in display order (sort, then id), each in the preferred language. */
export async function listBanners(
  db: Database,
  lang: Language,
  { page, limit, type }: { page: number; limit: number; type: number },
): Promise<BannerList> {
  const banners = () =>
    db
      .selectFrom('banners as b')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('banner_translations')
            .select(['lang', 'title', 'image_url'])
            .whereRef('banner_id', '=', 'b.id')
            .orderBy(preference(lang))
            .limit(1)
            .as('tr'),
        (join) => join.onTrue(),
      )
      .where('b.visible', '=', true)
      .where('b.type', '=', type)
  const [rows, count] = await Promise.all([
    banners()
      .select(['b.id', 'b.link', 'b.sort', 'tr.lang', 'tr.title', 'tr.image_url'])
      .orderBy('b.sort')
      .orderBy('b.id')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    banners()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { list: rows, total: Number(count.n), page, limit }
}
