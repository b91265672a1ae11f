import fs from 'node:fs'
import path from 'node:path'
import {
  type AdminBanner,
  type AdminNotice,
  API_BASE,
  api,
  Code,
  UPLOAD_MAX_BYTES,
  type Upload,
} from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditCount, PNG_1PX, signedInAdmin, type TestAdmin, upload } from './admin.ts'
import { call, createTestApp, dbKind, type TestContext } from './helpers.ts'

const LANGS = ['en', 'zh', 'ja', 'ko', 'vi'] as const

describe(`operator console content (${dbKind})`, () => {
  let t: TestContext
  let operator: TestAdmin
  let viewer: TestAdmin
  beforeAll(async () => {
    t = await createTestApp()
    operator = await signedInAdmin(t.app, t.db, 'operator')
    viewer = await signedInAdmin(t.app, t.db, 'viewer')
  })
  afterAll(() => t.close())

  const texts = (title: string) =>
    LANGS.map((lang) => ({ lang, title: `${title} (${lang})`, body: `<p>${title} in ${lang}</p>` }))
  const saveNotice = (body: Record<string, unknown>) => call(t.app, api.adminNoticeSave, body, operator.headers)
  const publicList = async (lang = 'en') =>
    (await call(t.app, api.noticeList, { page: 1, limit: 50 }, { lang })).data as {
      list: { id: string; title: string; is_event: boolean }[]
      event: { id: string; title: string } | null
    }

  describe('notices', () => {
    it('publishes a notice in five languages; users read it in theirs', async () => {
      const res = await saveNotice({ translations: texts('Upgrade'), visible: true, is_event: false })
      expect(res).toMatchObject({ code: Code.OK, msg: 'Saved' })
      const notice = res.data as AdminNotice
      expect(notice.translations.map((tr) => tr.lang)).toEqual([...LANGS])
      for (const lang of LANGS) {
        const info = await call(t.app, api.noticeInfo, { id: notice.id }, { lang })
        expect(info.data).toMatchObject({ title: `Upgrade (${lang})`, body: `<p>Upgrade in ${lang}</p>`, lang })
      }
    })

    it('the event flag moves to the last notice given it; unpublish and publish apply to the next read', async () => {
      const a = (await saveNotice({ translations: texts('Event A'), visible: true, is_event: true }))
        .data as AdminNotice
      expect((await publicList()).event).toEqual({ id: a.id, title: 'Event A (en)' })
      const b = (await saveNotice({ translations: texts('Event B'), visible: true, is_event: true }))
        .data as AdminNotice
      expect((await publicList()).event).toEqual({ id: b.id, title: 'Event B (en)' })
      const all = (await call(t.app, api.adminNotices, { limit: 100 }, viewer.headers)).data as { list: AdminNotice[] }
      expect(all.list.filter((n) => n.is_event).map((n) => n.id)).toEqual([b.id])

      const hide = await call(t.app, api.adminNoticePublish, { id: b.id, visible: false }, operator.headers)
      expect(hide.data).toMatchObject({ id: b.id, visible: false })
      expect((await publicList()).list.map((n) => n.id)).not.toContain(b.id)
      expect((await publicList()).event).toBeNull()
      expect((await call(t.app, api.noticeInfo, { id: b.id })).code).toBe(Code.NOT_FOUND)
      await call(t.app, api.adminNoticePublish, { id: b.id, visible: true }, operator.headers)
      expect((await publicList()).list.map((n) => n.id)).toContain(b.id)
    })

    it('edits replace the translations; a scheduled notice waits for its time', async () => {
      const created = (await saveNotice({ translations: texts('Draft'), visible: true, is_event: false }))
        .data as AdminNotice
      const future = new Date(Date.now() + 86_400_000).toISOString()
      const edited = await saveNotice({
        id: created.id,
        translations: [{ lang: 'en', title: 'Final', body: '<p>Final</p>' }],
        visible: true,
        is_event: false,
        published_at: future,
      })
      expect(edited.data).toMatchObject({
        id: created.id,
        published_at: future,
        translations: [{ lang: 'en', title: 'Final', body: '<p>Final</p>' }],
      })
      expect((await publicList()).list.map((n) => n.id)).not.toContain(created.id)
      // Only en is left: every language reads it.
      const past = new Date(Date.now() - 1000).toISOString()
      await saveNotice({
        id: created.id,
        translations: [{ lang: 'en', title: 'Final', body: '' }],
        visible: true,
        is_event: false,
        published_at: past,
      })
      const zh = await publicList('zh')
      expect(zh.list.find((n) => n.id === created.id)?.title).toBe('Final')
      const audit = await call(t.app, api.adminAudit, { target: `notice:${created.id}` }, viewer.headers)
      expect((audit.data as { total: number }).total).toBe(3)
    })

    it('refuses a notice without English, with a language twice or a blank title, and unknown ids; nothing stored', async () => {
      const count = async () => (await t.db.selectFrom('notices').select('id').execute()).length
      const [before, audits] = [await count(), await auditCount(t.db)]
      const bad = [
        { translations: [{ lang: 'zh', title: '通知', body: '' }], visible: true, is_event: false },
        {
          translations: [
            { lang: 'en', title: 'A', body: '' },
            { lang: 'en', title: 'B', body: '' },
          ],
          visible: true,
          is_event: false,
        },
        { translations: [{ lang: 'en', title: '   ', body: '' }], visible: true, is_event: false },
        { translations: [{ lang: 'xx', title: 'A', body: '' }], visible: true, is_event: false },
      ]
      for (const body of bad) expect((await saveNotice(body)).code, JSON.stringify(body)).toBe(Code.INVALID)
      const missing = { id: '99999', translations: texts('Ghost'), visible: true, is_event: false }
      expect((await saveNotice(missing)).code).toBe(Code.NOT_FOUND)
      expect((await saveNotice({ ...missing, id: '9223372036854775807' })).code).toBe(Code.NOT_FOUND)
      // Past bigint: no id at all, refused by the contract's Id.
      expect((await saveNotice({ ...missing, id: '9223372036854775808' })).code).toBe(Code.INVALID)
      expect((await call(t.app, api.adminNoticePublish, { id: '99999', visible: true }, operator.headers)).code).toBe(
        Code.NOT_FOUND,
      )
      expect(await count()).toBe(before)
      expect(await auditCount(t.db)).toBe(audits)
    })
  })

  describe('banners and uploads', () => {
    const uploadsDir = () => path.join(t.app.config.dataDir, 'uploads')
    const stored = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).sort() : [])
    const send = (name: string, type: string, bytes: Buffer, field?: string) =>
      upload(t.app, operator.headers.headers, { name, type, bytes, ...(field ? { field } : {}) })

    it('an uploaded image is stored under a server-made name, served back, and usable in a banner', async () => {
      const res = await send('photo of the team.PNG', 'image/png', PNG_1PX)
      expect(res).toMatchObject({
        code: Code.OK,
        msg: 'Image uploaded',
        data: { content_type: 'image/png', size: PNG_1PX.length },
      })
      const file = res.data as Upload
      expect(file.name).toMatch(/^[0-9a-f]{32}\.png$/)
      expect(file.url).toBe(`/uploads/${file.name}`)
      expect(stored()).toContain(file.name)
      const served = await t.app.inject({ method: 'GET', url: file.url })
      expect(served.statusCode).toBe(200)
      expect(served.headers['content-type']).toBe('image/png')
      expect(served.headers['x-content-type-options']).toBe('nosniff')
      expect(served.rawPayload.equals(PNG_1PX)).toBe(true)

      const banner = await call(
        t.app,
        api.adminBannerSave,
        {
          type: 1,
          sort: 0,
          link: '/pledge',
          visible: true,
          translations: LANGS.map((lang) => ({ lang, title: `Banner ${lang}`, image_url: file.url })),
        },
        operator.headers,
      )
      expect(banner.code, banner.msg).toBe(Code.OK)
      const id = (banner.data as AdminBanner).id
      const home = async () =>
        (
          (await call(t.app, api.bannerList, { page: 1, limit: 10, type: 1 }, { lang: 'ko' })).data as {
            list: { id: string; title: string; image_url: string }[]
          }
        ).list
      expect((await home()).find((b) => b.id === id)).toMatchObject({ title: 'Banner ko', image_url: file.url })
      await call(t.app, api.adminBannerPublish, { id, visible: false }, operator.headers)
      expect((await home()).map((b) => b.id)).not.toContain(id)
      // A javascript: link or image is refused by the contract.
      const bad = await call(
        t.app,
        api.adminBannerSave,
        {
          id,
          type: 1,
          sort: 0,
          link: 'javascript:alert(1)',
          visible: true,
          translations: [{ lang: 'en', title: 'x', image_url: file.url }],
        },
        operator.headers,
      )
      expect(bad.code).toBe(Code.INVALID)
    })

    it('accepts JPEG, WebP and GIF by their content', async () => {
      const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16)])
      const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(8)])
      const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(10)])
      for (const [name, type, bytes, ext] of [
        ['a.jpeg', 'image/jpeg', jpeg, 'jpg'],
        ['a.webp', 'image/webp', webp, 'webp'],
        ['a.gif', 'image/gif', gif, 'gif'],
      ] as const) {
        const res = await send(name, type, bytes)
        expect(res.code, name).toBe(Code.OK)
        expect((res.data as Upload).name.endsWith(`.${ext}`)).toBe(true)
      }
    })

    it('refuses wrong types, oversize files, path tricks in the name and other fields; nothing stored', async () => {
      const before = stored()
      const audits = await auditCount(t.db)
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
      const oversize = Buffer.concat([PNG_1PX, Buffer.alloc(UPLOAD_MAX_BYTES)])
      const refusals: [string, string, Buffer, string, string?][] = [
        ['note.png', 'image/png', Buffer.from('just some text'), 'Only PNG, JPEG, WebP or GIF images are accepted'],
        ['logo.svg', 'image/svg+xml', svg, 'Only PNG, JPEG, WebP or GIF images are accepted'],
        ['logo.png', 'image/png', svg, 'Only PNG, JPEG, WebP or GIF images are accepted'],
        ['anim.png', 'image/gif', Buffer.from('GIF89a-----'), 'Only PNG, JPEG, WebP or GIF images are accepted'],
        ['page.html', 'image/png', PNG_1PX, 'Only PNG, JPEG, WebP or GIF images are accepted'],
        ['big.png', 'image/png', oversize, 'The file is larger than 2 MB'],
        ['../../etc/passwd.png', 'image/png', PNG_1PX, 'The file name is not acceptable'],
        ['..\\..\\a.png', 'image/png', PNG_1PX, 'The file name is not acceptable'],
        ['/var/www/a.png', 'image/png', PNG_1PX, 'The file name is not acceptable'],
        ['dir/a.png', 'image/png', PNG_1PX, 'The file name is not acceptable'],
        ['C:a.png', 'image/png', PNG_1PX, 'The file name is not acceptable'],
        ['.htaccess', 'image/png', PNG_1PX, 'The file name is not acceptable'],
        ['a\u0001.png', 'image/png', PNG_1PX, 'The file name is not acceptable'],
        ['a.png', 'image/png', PNG_1PX, "Please send one image file in the field 'video'", 'image'],
      ]
      for (const [name, type, bytes, msg, field] of refusals) {
        const res = await send(name, type, bytes, field)
        expect(res.code, name).not.toBe(Code.OK)
        expect(res.msg, name).toBe(msg)
        expect(res.status, name).toBe(200)
      }
      // JSON instead of a file.
      const json = await call(t.app, api.adminUpload, {}, operator.headers)
      expect(json.msg).toBe("Please send one image file in the field 'video'")
      expect(stored()).toEqual(before)
      expect(await auditCount(t.db)).toBe(audits)
    })

    it('serves only stored upload names', async () => {
      for (const url of [
        '/uploads/..%2F..%2Fpackage.json',
        '/uploads/../package.json',
        '/uploads/0123456789abcdef0123456789abcdef.png',
        '/uploads/x.png',
        `${API_BASE}/../uploads/a.png`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url })
        expect(res.statusCode, url).toBe(404)
      }
    })
  })
})
