import fs from 'node:fs'
import { api, Code, LANGUAGES, type Language } from '@solpledge/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sanitizeRichText } from '../src/lib/rich-text.ts'
import { DEMO_BANNERS, DEMO_NOTICES, seedNotices } from '../src/modules/notice/seed.ts'
import { call, createTestApp, dbKind, type TestContext } from './helpers.ts'

interface ListItem {
  id: string
  title: string
  lang: string
  is_event: boolean
  published_at: string
}
interface NoticeList {
  list: ListItem[]
  total: number
  page: number
  limit: number
  event: { id: string; title: string } | null
}
interface Notice extends ListItem {
  body: string
}
interface Banner {
  id: string
  title: string
  image_url: string
  link: string | null
  sort: number
  lang: string
}

const webPublic = new URL('../../web/public', import.meta.url).pathname

describe(`notices and banners (${dbKind})`, () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())
  beforeEach(async () => {
    await t.db.deleteFrom('notices').execute()
    await t.db.deleteFrom('banners').execute()
  })

  /** A notice with translations in the given languages ("<lang> title n" / "<p><lang> body n</p>"). */
  async function addNotice(
    langs: readonly Language[],
    options: { n?: number; hoursAgo?: number; isEvent?: boolean; visible?: boolean } = {},
  ) {
    const { n = 1, hoursAgo = 1, isEvent = false, visible = true } = options
    const { id } = await t.db
      .insertInto('notices')
      .values({
        is_event: isEvent,
        visible,
        published_at: sql<Date>`now() - make_interval(hours => ${hoursAgo}::int)`,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (langs.length)
      await t.db
        .insertInto('notice_translations')
        .values(
          langs.map((lang) => ({ notice_id: id, lang, title: `${lang} title ${n}`, body: `<p>${lang} body ${n}</p>` })),
        )
        .execute()
    return id
  }

  async function addBanner(
    langs: readonly Language[],
    options: { type?: number; sort?: number; visible?: boolean; link?: string | null } = {},
  ) {
    const { type = 1, sort = 0, visible = true, link = '/pledge' } = options
    const { id } = await t.db
      .insertInto('banners')
      .values({ type, sort, visible, link })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db
      .insertInto('banner_translations')
      .values(
        langs.map((lang) => ({ banner_id: id, lang, title: `${lang} banner`, image_url: `/banners/${lang}.svg` })),
      )
      .execute()
    return id
  }

  const list = async (body: Record<string, unknown>, lang?: string) => {
    const res = await call(t.app, api.noticeList, body, lang === undefined ? {} : { lang })
    expect(res.code, res.msg).toBe(Code.OK)
    return res.data as NoticeList
  }
  const info = async (id: string, lang: string) => {
    const res = await call(t.app, api.noticeInfo, { id }, { lang })
    expect(res.code, res.msg).toBe(Code.OK)
    return res.data as Notice
  }
  const banners = async (body: Record<string, unknown>, lang = 'en') => {
    const res = await call(t.app, api.bannerList, body, { lang })
    expect(res.code, res.msg).toBe(Code.OK)
    return res.data as { list: Banner[]; total: number; page: number; limit: number }
  }

  it('answers a notice in each of the five languages', async () => {
    const id = await addNotice(LANGUAGES)
    for (const lang of LANGUAGES) {
      const page = await list({ page: 1, limit: 10 }, lang)
      expect(page.list).toEqual([expect.objectContaining({ id, title: `${lang} title 1`, lang, is_event: false })])
      const notice = await info(id, lang)
      expect(notice).toMatchObject({ id, title: `${lang} title 1`, body: `<p>${lang} body 1</p>`, lang })
      expect(new Date(notice.published_at).getTime()).toBeLessThan(Date.now())
    }
    // A regional tag picks its language; a list of preferences picks the first one supported.
    expect((await info(id, 'zh-CN,zh;q=0.9')).lang).toBe('zh')
    expect((await info(id, 'de-DE,ko;q=0.8,en;q=0.5')).lang).toBe('ko')
  })

  it('falls back to en when the translation of the requested language is missing', async () => {
    const id = await addNotice(['en', 'zh'])
    for (const lang of ['ja', 'ko', 'vi', 'ja-JP', 'de,vi;q=0.5']) {
      expect(await info(id, lang)).toMatchObject({ title: 'en title 1', body: '<p>en body 1</p>', lang: 'en' })
      expect((await list({ page: 1, limit: 10 }, lang)).list[0]).toMatchObject({ title: 'en title 1', lang: 'en' })
    }
    expect(await info(id, 'zh')).toMatchObject({ title: 'zh title 1', lang: 'zh' })
    // No accept-language, or none of the five: the request language is zh (docs/product.md#languages).
    expect(await info(id, 'de-DE')).toMatchObject({ title: 'zh title 1', lang: 'zh' })
    const bare = await t.app.inject({ method: 'POST', url: `/api${api.noticeInfo.path}`, payload: { id } })
    expect(bare.json().data).toMatchObject({ title: 'zh title 1', lang: 'zh' })
  })

  it('falls back for the title and the body independently: a zh title with a body that shows nothing takes the en body', async () => {
    const id = await addNotice(['en', 'ja'])
    for (const [lang, body] of [
      ['zh', ''],
      ['ko', ' <p><br></p>&nbsp;\n'],
      ['vi', '<p> </p>'],
    ] as const)
      await t.db
        .insertInto('notice_translations')
        .values({ notice_id: id, lang, title: `${lang} title`, body: sanitizeRichText(body) })
        .execute()
    for (const lang of ['zh', 'ko', 'vi'])
      expect(await info(id, lang)).toMatchObject({
        title: `${lang} title`,
        lang,
        body: '<p>en body 1</p>',
        body_lang: 'en',
      })
    expect(await info(id, 'ja')).toMatchObject({
      title: 'ja title 1',
      body: '<p>ja body 1</p>',
      lang: 'ja',
      body_lang: 'ja',
    })
    // An image alone is a body; without any body at all, the notice shows its title with the empty body it has.
    await t.db
      .updateTable('notice_translations')
      .set({ body: sanitizeRichText('<p><img src="/banners/node.svg" alt=""></p>') })
      .where('notice_id', '=', id)
      .where('lang', '=', 'vi')
      .execute()
    expect(await info(id, 'vi')).toMatchObject({ body_lang: 'vi' })
    await t.db.updateTable('notice_translations').set({ body: '' }).where('notice_id', '=', id).execute()
    expect(await info(id, 'zh')).toMatchObject({ title: 'zh title', body: '', body_lang: 'zh' })
  })

  it('shows a notice without en in a language it has rather than hiding it', async () => {
    const id = await addNotice(['vi', 'ja'])
    expect(await info(id, 'ko')).toMatchObject({ title: 'ja title 1', lang: 'ja' })
    expect(await info(id, 'vi')).toMatchObject({ title: 'vi title 1', lang: 'vi' })
    expect((await list({ page: 1, limit: 10 }, 'en')).total).toBe(1)
    // A notice with no translation at all is not shown.
    const bare = await addNotice([])
    expect((await list({ page: 1, limit: 10 }, 'en')).list.map((n) => n.id)).toEqual([id])
    expect((await call(t.app, api.noticeInfo, { id: bare })).code).toBe(Code.NOT_FOUND)
  })

  it('refuses an unknown, hidden or scheduled notice with NOT_FOUND and a clear message', async () => {
    const hidden = await addNotice(['en'], { visible: false })
    const scheduled = await addNotice(['en'], { hoursAgo: -2 })
    for (const id of ['987654321', hidden, scheduled, '9223372036854775807']) {
      const res = await call(t.app, api.noticeInfo, { id })
      expect(res, id).toMatchObject({ code: Code.NOT_FOUND, msg: 'This notice does not exist', data: null })
    }
    // Past bigint: not an id, refused by the contract before any lookup.
    expect((await call(t.app, api.noticeInfo, { id: '9999999999999999999' })).code).toBe(Code.INVALID)
    expect((await call(t.app, api.noticeInfo, { id: hidden }, { lang: 'zh' })).msg).toBe('该公告不存在')
    expect((await call(t.app, api.noticeInfo, { id: hidden }, { lang: 'vi' })).msg).toBe('Thông báo này không tồn tại')
    expect(await list({ page: 1, limit: 10 })).toMatchObject({ list: [], total: 0 })
  })

  it('pages the list newest first', async () => {
    const ids: string[] = []
    for (let n = 1; n <= 23; n++) ids.push(await addNotice(['en'], { n, hoursAgo: 100 - n }))
    const newestFirst = [...ids].reverse()
    const pages = await Promise.all([1, 2, 3, 4].map((page) => list({ page, limit: 10 }, 'en')))
    expect(pages.map((p) => p.list.length)).toEqual([10, 10, 3, 0])
    expect(pages.every((p) => p.total === 23 && p.limit === 10)).toBe(true)
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3, 4])
    expect(pages.flatMap((p) => p.list.map((n) => n.id))).toEqual(newestFirst)
    expect(pages[0]?.list[0]?.title).toBe('en title 23')
    // Same publication time: the newer id first.
    const a = await addNotice(['en'], { n: 100, hoursAgo: 0 })
    await t.db
      .updateTable('notices')
      .set({ published_at: sql<Date>`(select published_at from notices where id = ${a})` })
      .execute()
    const tied = await list({ page: 1, limit: 100 }, 'en')
    expect(tied.list.map((n) => n.id)).toEqual([...ids, a].sort((x, y) => Number(y) - Number(x)))
  })

  it('refuses bad input with INVALID', async () => {
    const bad: [typeof api.noticeList | typeof api.noticeInfo | typeof api.bannerList, Record<string, unknown>][] = [
      [api.noticeList, {}],
      [api.noticeList, { page: 0, limit: 10 }],
      [api.noticeList, { page: 1, limit: 0 }],
      [api.noticeList, { page: 1, limit: 101 }],
      [api.noticeList, { page: '1', limit: 10 }],
      [api.noticeList, { page: 1.5, limit: 10 }],
      [api.noticeList, { page: 1, limit: 10, lang: 'en' }],
      [api.noticeInfo, {}],
      [api.noticeInfo, { id: 'abc' }],
      [api.noticeInfo, { id: '0' }],
      [api.noticeInfo, { id: '-1' }],
      [api.noticeInfo, { id: 1 }],
      [api.noticeInfo, { id: '12345678901234567890' }],
      [api.bannerList, { page: 1, limit: 10 }],
      [api.bannerList, { page: 1, limit: 10, type: 0 }],
      [api.bannerList, { page: 1, limit: 10, type: 'home' }],
    ]
    for (const [route, body] of bad) {
      const res = await call(t.app, route, body)
      expect(res.code, `${route.path} ${JSON.stringify(body)}`).toBe(Code.INVALID)
      expect(res.msg).toMatch(/^Invalid request/)
    }
  })

  it('names the event notice only when the operator flags one, and at most one', async () => {
    await addNotice(['en', 'zh'], { n: 1 })
    expect((await list({ page: 1, limit: 10 }, 'en')).event).toBeNull()
    const event = await addNotice(['en', 'zh'], { n: 2, isEvent: true, hoursAgo: 50 })
    const page = await list({ page: 1, limit: 1 }, 'zh')
    expect(page.event).toEqual({ id: event, title: 'zh title 2' })
    expect(page.list[0]?.is_event).toBe(false)
    expect((await info(event, 'en')).is_event).toBe(true)
    await expect(addNotice(['en'], { isEvent: true })).rejects.toThrow()
    // A hidden event notice is no event.
    await t.db.updateTable('notices').set({ visible: false }).where('id', '=', event).execute()
    expect((await list({ page: 1, limit: 10 }, 'en')).event).toBeNull()
  })

  it('lists the banners of a type in display order, per language with the en fallback', async () => {
    const second = await addBanner(['en', 'zh', 'ja', 'ko', 'vi'], { sort: 2 })
    const first = await addBanner(['en', 'ko'], { sort: 1, link: null })
    const third = await addBanner(['en'], { sort: 2, link: 'https://example.org/x' })
    await addBanner(['en'], { sort: 0, visible: false })
    await addBanner(['en'], { type: 2 })
    const ko = await banners({ page: 1, limit: 10, type: 1 }, 'ko')
    expect(ko.total).toBe(3)
    expect(ko.list).toEqual([
      { id: first, title: 'ko banner', image_url: '/banners/ko.svg', link: null, sort: 1, lang: 'ko' },
      { id: second, title: 'ko banner', image_url: '/banners/ko.svg', link: '/pledge', sort: 2, lang: 'ko' },
      {
        id: third,
        title: 'en banner',
        image_url: '/banners/en.svg',
        link: 'https://example.org/x',
        sort: 2,
        lang: 'en',
      },
    ])
    const ja = await banners({ page: 1, limit: 10, type: 1 }, 'ja')
    expect(ja.list.map((b) => b.lang)).toEqual(['en', 'ja', 'en'])
    const paged = await banners({ page: 2, limit: 2, type: 1 })
    expect(paged).toMatchObject({ total: 3, page: 2, limit: 2, list: [{ id: third }] })
    expect((await banners({ page: 1, limit: 10, type: 2 })).total).toBe(1)
    expect((await banners({ page: 1, limit: 10, type: 3 })).list).toEqual([])
  })

  it('refuses links and images that are not site paths or https', async () => {
    for (const link of ['javascript:alert(1)', 'http://example.org', '//evil.example', 'data:text/html,x', '/\\evil']) {
      await expect(addBanner(['en'], { link }), link).rejects.toThrow()
    }
    const id = await addBanner(['en'], { link: '/' })
    await expect(
      t.db
        .insertInto('banner_translations')
        .values({ banner_id: id, lang: 'zh', title: 'x', image_url: 'javascript:alert(1)' })
        .execute(),
    ).rejects.toThrow()
    await expect(
      t.db
        .insertInto('banner_translations')
        .values({ banner_id: id, lang: 'fr', title: 'x', image_url: '/a.svg' })
        .execute(),
    ).rejects.toThrow()
  })

  it('seeds demo notices and banners once per database (a deleted one stays deleted), in all five languages, with no event notice and local images', async () => {
    await seedNotices(t.db)
    await seedNotices(t.db)
    await Promise.all([seedNotices(t.db), seedNotices(t.db)])
    for (const lang of LANGUAGES) {
      const page = await list({ page: 1, limit: 10 }, lang)
      expect(page.total).toBe(DEMO_NOTICES.length)
      expect(page.event).toBeNull()
      expect(page.list.every((n) => n.lang === lang && !n.is_event)).toBe(true)
      // Newest first: the demo notices are listed in reverse order of age.
      const newest = [...DEMO_NOTICES].sort((a, b) => a.ageHours - b.ageHours)
      expect(page.list.map((n) => n.title)).toEqual(newest.map((n) => n.texts[lang].title))
      const home = await banners({ page: 1, limit: 10, type: 1 }, lang)
      expect(home.list.map((b) => b.title)).toEqual(DEMO_BANNERS.map((b) => b.titles[lang]))
    }
    for (const banner of DEMO_BANNERS) {
      expect(banner.imageUrl).toMatch(/^\/banners\/[\w-]+\.(svg|png)$/)
      expect(fs.existsSync(`${webPublic}${banner.imageUrl}`), banner.imageUrl).toBe(true)
    }
    // An operator's edits of seeded rows survive the next start: a changed title, a hidden banner.
    await t.db.updateTable('notice_translations').set({ title: 'Edited' }).where('lang', '=', 'en').execute()
    await t.db.updateTable('banners').set({ visible: false }).where('slug', '=', 'demo-banner-team').execute()
    // A deleted demo notice stays deleted: the demo content is seeded once per database.
    await t.db.deleteFrom('notices').where('slug', '=', 'demo-welcome').execute()
    await seedNotices(t.db)
    expect((await list({ page: 1, limit: 10 }, 'en')).list.every((n) => n.title === 'Edited')).toBe(true)
    expect((await list({ page: 1, limit: 10 }, 'en')).total).toBe(DEMO_NOTICES.length - 1)
    expect((await banners({ page: 1, limit: 10, type: 1 })).total).toBe(DEMO_BANNERS.length - 1)
  })
})
