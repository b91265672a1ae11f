import { describe, expect, it } from 'vitest'
import { pickLanguage } from './i18n.ts'

describe('pickLanguage', () => {
  it.each([
    [undefined, 'zh'],
    ['', 'zh'],
    ['en', 'en'],
    ['ja-JP,ja;q=0.9', 'ja'],
    ['fr-FR,ko;q=0.5,vi;q=0.8', 'vi'],
    ['de, fr', 'zh'],
    ['EN-us', 'en'],
    ['en;q=0, ko', 'ko'],
  ])('%s → %s', (header, expected) => {
    expect(pickLanguage(header)).toBe(expected)
  })
})
