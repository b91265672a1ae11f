import { LANGUAGES } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import adminEn from './admin/en.json'
import adminJa from './admin/ja.json'
import adminKo from './admin/ko.json'
import adminVi from './admin/vi.json'
import adminZh from './admin/zh.json'
import en from './en.json'
import ja from './ja.json'
import ko from './ko.json'
import vi from './vi.json'
import zh from './zh.json'

/** The app's strings and the operator console's (a namespace of its own chunk), each in every language. */
const sets: Record<string, Record<string, unknown>> = {
  app: { en, zh, ja, ko, vi },
  console: { en: adminEn, zh: adminZh, ja: adminJa, ko: adminKo, vi: adminVi },
}

/** Flattens nested strings to dotted keys: { a: { b: 'x' } } → { 'a.b': 'x' }. Non-string leaves map to undefined. */
function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return { [prefix]: value }
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, child]) => Object.entries(flatten(child, prefix ? `${prefix}.${key}` : key))),
  )
}

describe.each(Object.entries(sets))('interface strings of the %s', (_set, locales) => {
  it('exist for each of the five languages', () => {
    expect(Object.keys(locales).sort()).toEqual([...LANGUAGES].sort())
  })

  const all = Object.entries(locales).map(([lang, json]) => [lang, flatten(json)] as const)
  const keys = new Set(all.flatMap(([, flat]) => Object.keys(flat)))

  it.each(all)('%s has every key of every language, each a non-empty string', (_lang, flat) => {
    for (const key of keys) {
      const text = flat[key]
      expect(typeof text === 'string' && text.trim() !== '', `key "${key}"`).toBe(true)
    }
  })
})
