import {
  DEFAULT_REQUEST_LANGUAGE,
  DEFAULT_UI_LANGUAGE,
  isLanguage,
  type Language,
  pickLanguage,
} from '@solpledge/contract/client'

/** Where the interface language is stored (docs/product.md#languages). */
export const LANGUAGE_KEY = 'i18nextLng'

/** Each language in its own words, for the language switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  zh: '中文',
  ja: '日本語',
  ko: '한국어',
  vi: 'Tiếng Việt',
}

/**
 * The interface language at start-up (docs/product.md#languages): a stored supported language wins; any other stored
 * value falls back to en; with nothing stored, the first supported browser language ('zh-CN' → zh), else en.
 */
export function chooseLanguage(stored: string | null, browserLanguages: readonly string[]): Language {
  if (stored !== null) return isLanguage(stored) ? stored : DEFAULT_UI_LANGUAGE
  return pickLanguage(browserLanguages.join(','), DEFAULT_UI_LANGUAGE)
}

/** The accept-language of API requests: the stored language, zh when absent (docs/product.md#languages). */
export function requestLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY)
  return isLanguage(stored) ? stored : DEFAULT_REQUEST_LANGUAGE
}
