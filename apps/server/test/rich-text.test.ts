import {
  type AdminCampaign,
  type AdminNotice,
  api,
  Code,
  RICH_ATTRIBUTES,
  RICH_DROP,
  RICH_RENAME,
  RICH_TAGS,
} from '@solpledge/contract'
import { HOSTILE, HOSTILE_CLEAN } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { up as cleanStoredBodies } from '../src/db/migrations/0026-clean-rich-text.ts'
import { richTextOptions, sanitizeRichText } from '../src/lib/rich-text.ts'
import { signedInAdmin, type TestAdmin } from './admin.ts'
import { call, createTestApp, dbKind, type TestContext } from './helpers.ts'

describe('rich text sanitized with the contract allow-list', () => {
  it("uses the contract's tags, renames, dropped tags and attributes, nothing else", () => {
    expect(richTextOptions.allowedTags).toEqual([...RICH_TAGS])
    expect(richTextOptions.nonTextTags).toEqual([...RICH_DROP])
    for (const tag of RICH_TAGS) {
      const html =
        tag === 'a' ? '<a href="/x">t</a>' : tag === 'img' ? '<img src="/i.png" alt="t">' : `<${tag}>t</${tag}>`
      expect(sanitizeRichText(html), tag).toMatch(new RegExp(`^<${tag}[ >]`))
    }
    for (const [from, to] of Object.entries(RICH_RENAME))
      expect(sanitizeRichText(`<${from}>t</${from}>`), from).toBe(`<${to}>t</${to}>`)
    // embed and frame are void elements: nothing inside them to drop.
    for (const tag of RICH_DROP)
      expect(
        sanitizeRichText(['embed', 'frame'].includes(tag) ? `<${tag} src="/x">kept` : `<${tag}>gone</${tag}>kept`),
        tag,
        // plaintext takes everything after it: nothing is kept.
      ).toBe(tag === 'plaintext' ? '' : 'kept')
    expect(
      sanitizeRichText('<a href="/a" title="t" class="c">x</a><img src="/i.png" alt="a" width="1" onerror="x">'),
    ).toBe(`<a ${RICH_ATTRIBUTES.a?.[0]}="/a">x</a><img src="/i.png" alt="a" />`)
  })

  it('stores a body that shows nothing as empty; an image alone is content', () => {
    for (const blank of [
      '',
      ' <p><br></p>&nbsp;\n',
      '<p> </p>',
      '<div><span style="x"></span></div>',
      '<script>x</script>',
    ])
      expect(sanitizeRichText(blank), blank).toBe('')
    expect(sanitizeRichText('<p><img src="/banners/node.svg" alt=""></p>')).toBe(
      '<p><img src="/banners/node.svg" alt="" /></p>',
    )
  })
})

describe(`rich-text bodies are clean when stored (${dbKind})`, () => {
  let t: TestContext
  let operator: TestAdmin
  beforeAll(async () => {
    t = await createTestApp()
    operator = await signedInAdmin(t.app, t.db, 'operator')
  })
  afterAll(() => t.close())

  it('a notice saved with a script, a handler and a javascript: link is stored and served clean', async () => {
    const res = await call(
      t.app,
      api.adminNoticeSave,
      { translations: [{ lang: 'en', title: 'T', body: HOSTILE }], visible: true, is_event: false },
      operator.headers,
    )
    expect(res.code).toBe(Code.OK)
    const notice = res.data as AdminNotice
    const stored = await t.db
      .selectFrom('notice_translations')
      .select('body')
      .where('notice_id', '=', notice.id)
      .executeTakeFirstOrThrow()
    expect(stored.body).toBe(HOSTILE_CLEAN)
    expect(notice.translations[0]?.body).toBe(HOSTILE_CLEAN)
    expect((await call(t.app, api.noticeInfo, { id: notice.id })).data).toMatchObject({ body: HOSTILE_CLEAN })
  })

  it('a campaign saved with the same body is stored clean', async () => {
    const res = await call(
      t.app,
      api.adminCampaignSave,
      {
        translations: [{ lang: 'en', title: 'C', body: HOSTILE }],
        starts_at: new Date(Date.now() + 3_600_000).toISOString(),
        ends_at: new Date(Date.now() + 7_200_000).toISOString(),
        tiers: [{ min_direct: 1, min_fuel: '0', reward: { kind: 'trip', places: 1 } }],
      },
      operator.headers,
    )
    expect(res.code).toBe(Code.OK)
    const campaign = res.data as AdminCampaign
    const stored = await t.db
      .selectFrom('campaign_translations')
      .select('body')
      .where('campaign_id', '=', campaign.id)
      .executeTakeFirstOrThrow()
    expect(stored.body).toBe(HOSTILE_CLEAN)
  })

  it('the migration cleans the bodies stored before', async () => {
    const notice = await t.db.insertInto('notices').values({ visible: true }).returning('id').executeTakeFirstOrThrow()
    await t.db
      .insertInto('notice_translations')
      .values([
        { notice_id: notice.id, lang: 'en', title: 'raw', body: HOSTILE },
        { notice_id: notice.id, lang: 'zh', title: 'blank', body: '<p>&nbsp;</p>' },
      ])
      .execute()
    await cleanStoredBodies(t.db as never)
    const rows = await t.db
      .selectFrom('notice_translations')
      .select(['lang', 'body'])
      .where('notice_id', '=', notice.id)
      .orderBy('lang')
      .execute()
    expect(rows).toEqual([
      { lang: 'en', body: HOSTILE_CLEAN },
      { lang: 'zh', body: '' },
    ])
  })
})
