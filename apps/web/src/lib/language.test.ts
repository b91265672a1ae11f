import { describe, expect, it } from 'vitest'
import { chooseLanguage } from './language.ts'

describe('chooseLanguage', () => {
  it('keeps a stored supported language whatever the browser says', () => {
    expect(chooseLanguage('ko', ['zh-CN'])).toBe('ko')
    expect(chooseLanguage('vi', [])).toBe('vi')
  })

  it('falls back to en when the stored value is not one of the five', () => {
    expect(chooseLanguage('fr', ['zh-CN'])).toBe('en')
    expect(chooseLanguage('', ['ja'])).toBe('en')
    expect(chooseLanguage('zh-CN', ['ja'])).toBe('en')
  })

  it('uses the base of the first supported browser language when nothing is stored', () => {
    expect(chooseLanguage(null, ['zh-CN', 'en-US'])).toBe('zh')
    expect(chooseLanguage(null, ['fr-FR', 'ja-JP', 'en'])).toBe('ja')
    expect(chooseLanguage(null, ['VI'])).toBe('vi')
  })

  it('falls back to en when no browser language is supported', () => {
    expect(chooseLanguage(null, ['fr-FR', 'de'])).toBe('en')
    expect(chooseLanguage(null, [])).toBe('en')
  })
})
