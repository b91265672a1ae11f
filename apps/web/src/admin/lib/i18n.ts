import { LANGUAGES, type Language } from '@solpledge/contract/client'
import i18next from 'i18next'
import en from '@/i18n/admin/en.json'
import ja from '@/i18n/admin/ja.json'
import ko from '@/i18n/admin/ko.json'
import vi from '@/i18n/admin/vi.json'
import zh from '@/i18n/admin/zh.json'

/** The console's strings, one file per language; typed against en so a missing key fails the type check too. */
const strings: Record<Language, typeof en> = { en, zh, ja, ko, vi }

/** The console's own i18next namespace: registered when its chunk loads, so users never download its strings. */
const ADMIN_NS = 'admin'

export function registerAdminStrings() {
  for (const language of LANGUAGES) i18next.addResourceBundle(language, ADMIN_NS, strings[language], true, true)
}
