import { type Catalogue, DEFAULT_UI_LANGUAGE, LANGUAGES, type Language } from '@solpledge/contract/client'
import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import type adminEn from '@/i18n/admin/en.json'
import type en from '@/i18n/en.json'
import { chooseLanguage, LANGUAGE_KEY } from './language.ts'

/** Interface strings, typed against en so a missing key fails the type check too. */
type UiStrings = typeof en

/**
 * Each language's strings are a chunk of their own (src/i18n/bundles): a page loads only its language, and another
 * one when the user switches to it. Every language has every key (i18n/locales.test.ts), so no fallback is loaded.
 */
const bundles: Record<Language, () => Promise<{ ui: UiStrings; msg: Catalogue }>> = {
  en: () => import('@/i18n/bundles/en.ts'),
  zh: () => import('@/i18n/bundles/zh.ts'),
  ja: () => import('@/i18n/bundles/ja.ts'),
  ko: () => import('@/i18n/bundles/ko.ts'),
  vi: () => import('@/i18n/bundles/vi.ts'),
}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'ui'
    /**
     * `ui`: this app's strings; `msg`: the contract's error catalogue, e.g. t('msg:wallet.signFailed'); `admin`: the
     * operator console's strings, registered by its chunk (admin/lib/i18n.ts).
     */
    resources: { ui: UiStrings; msg: Catalogue; admin: typeof adminEn }
  }
}

/** Loads a language's strings into i18next unless they are there already. */
async function loadLanguage(language: Language) {
  if (i18next.hasResourceBundle(language, 'ui')) return
  const { ui, msg } = await bundles[language]()
  // skipCopy: i18next otherwise deep-copies each bundle through JSON.stringify and JSON.parse first, in the start-up
  // task before the first render (docs/benchmarks.md); the bundles are the modules' own objects, never changed.
  i18next.addResourceBundle(language, 'ui', ui, true, true, { skipCopy: true })
  i18next.addResourceBundle(language, 'msg', msg, true, true, { skipCopy: true })
}

/**
 * Picks the start-up language (docs/product.md#languages), loads its strings, stores it and keeps localStorage and
 * <html lang> in sync with changes. The app renders once this resolves.
 */
export async function initI18n() {
  const language = chooseLanguage(localStorage.getItem(LANGUAGE_KEY), navigator.languages)
  i18next.on('languageChanged', (lng) => {
    localStorage.setItem(LANGUAGE_KEY, lng)
    document.documentElement.lang = lng
  })
  i18next.use(initReactI18next).init({
    resources: {},
    lng: language,
    fallbackLng: DEFAULT_UI_LANGUAGE,
    supportedLngs: LANGUAGES,
    ns: ['ui', 'msg'],
    defaultNS: 'ui',
    interpolation: { escapeValue: false },
    initAsync: false,
    partialBundledLanguages: true,
  })
  await loadLanguage(language)
  // i18next resolves the language only where it has strings, and had none at init: without this, resolvedLanguage
  // (what the number and date formatters and the language switcher read) stayed undefined until a switch, and figures
  // came out in the browser's locale instead of the interface language.
  await i18next.changeLanguage(language)
}

/** Switches the interface language, loading its strings first. */
export async function changeLanguage(language: Language) {
  await loadLanguage(language)
  await i18next.changeLanguage(language)
}
