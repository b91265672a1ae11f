import { type Catalogue, DEFAULT_UI_LANGUAGE, LANGUAGES, type Language, messages } from '@solpledge/contract'
import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import type adminEn from '../i18n/admin/en.json'
import en from '../i18n/en.json'
import ja from '../i18n/ja.json'
import ko from '../i18n/ko.json'
import vi from '../i18n/vi.json'
import zh from '../i18n/zh.json'
import { chooseLanguage, LANGUAGE_KEY } from './language.ts'

/** Interface strings, one file per language; typed against en so a missing key fails the type check too. */
const ui: Record<Language, typeof en> = { en, zh, ja, ko, vi }

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'ui'
    /**
     * `ui`: this app's strings; `msg`: the contract's error catalogue, e.g. t('msg:wallet.signFailed'); `admin`: the
     * operator console's strings, registered by its chunk (features/admin/i18n.ts).
     */
    resources: { ui: typeof en; msg: Catalogue; admin: typeof adminEn }
  }
}

/** Picks the start-up language (SPEC §1), stores it and keeps localStorage and <html lang> in sync with changes. */
export function initI18n() {
  const language = chooseLanguage(localStorage.getItem(LANGUAGE_KEY), navigator.languages)
  i18next.on('languageChanged', (lng) => {
    localStorage.setItem(LANGUAGE_KEY, lng)
    document.documentElement.lang = lng
  })
  i18next.use(initReactI18next).init({
    resources: Object.fromEntries(LANGUAGES.map((lng) => [lng, { ui: ui[lng], msg: messages[lng] }])),
    lng: language,
    fallbackLng: DEFAULT_UI_LANGUAGE,
    supportedLngs: LANGUAGES,
    ns: ['ui', 'msg'],
    defaultNS: 'ui',
    interpolation: { escapeValue: false },
    initAsync: false,
  })
}
