import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../i18n.ts'
import { messages, translate } from './index.ts'

describe('message catalogue', () => {
  const keys = Object.keys(messages.en).sort()
  it.each(LANGUAGES)('%s has every key of en and no other, none empty', (lang) => {
    const own = Object.keys(messages[lang]).sort()
    expect(own).toEqual(keys)
    for (const key of own) expect(messages[lang][key as keyof typeof messages.en].trim()).not.toBe('')
  })
  it.each(LANGUAGES)('%s keeps the placeholders of en', (lang) => {
    for (const key of keys) {
      const names = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()
      const k = key as keyof typeof messages.en
      expect(names(messages[lang][k]), `${lang} ${key}`).toEqual(names(messages.en[k]))
    }
  })
  it('fills placeholders and leaves unknown ones', () => {
    expect(translate('en', 'error.invalidParams', { detail: '/address' })).toBe('Invalid request: /address')
    expect(translate('zh', 'error.invalidParams')).toBe('请求无效：{{detail}}')
  })
})
