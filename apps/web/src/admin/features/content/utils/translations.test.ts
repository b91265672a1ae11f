import { describe, expect, it } from 'vitest'
import { emptyTranslations, readTranslations, translationsDraft } from './translations.ts'

const fields = ['title', 'body'] as const

describe('notice and banner translations', () => {
  it('sends the filled languages only, trimmed, English first', () => {
    const draft = emptyTranslations(fields)
    draft.en = { title: ' New period ', body: '<p>Hello</p>' }
    draft.ja = { title: '新しい期間', body: '' }
    expect(readTranslations(draft, fields)).toEqual({
      ok: true,
      value: [
        { lang: 'en', title: 'New period', body: '<p>Hello</p>' },
        { lang: 'ja', title: '新しい期間', body: '' },
      ],
    })
  })

  it('requires English, and a title in every language that has anything', () => {
    const draft = emptyTranslations(fields)
    draft.zh = { title: '公告', body: '' }
    expect(readTranslations(draft, fields)).toEqual({ ok: false, lang: 'en', error: 'englishRequired' })
    draft.en = { title: 'Notice', body: '' }
    draft.vi = { title: ' ', body: '<p>Xin chào</p>' }
    expect(readTranslations(draft, fields)).toEqual({ ok: false, lang: 'vi', error: 'titleRequired' })
    draft.vi = { title: 'x'.repeat(201), body: '' }
    expect(readTranslations(draft, fields)).toEqual({ ok: false, lang: 'vi', error: 'titleTooLong' })
  })

  it('loads stored translations into the draft', () => {
    const draft = translationsDraft(fields, [{ lang: 'ko', title: '공지', body: '<p>본문</p>' }])
    expect(draft.ko).toEqual({ title: '공지', body: '<p>본문</p>' })
    expect(draft.en).toEqual({ title: '', body: '' })
  })
})
