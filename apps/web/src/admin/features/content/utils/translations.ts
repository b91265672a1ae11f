import { LANGUAGES, type Language } from '@solpledge/contract/client'

/**
 * Texts of a notice or a banner in the five languages. A language left empty is not sent (users then see English);
 * English is required; a language that has anything needs its title.
 */
export type TranslationDraft<F extends string> = Record<Language, Record<F, string>>

export type TranslationError = { lang: Language; error: 'englishRequired' | 'titleRequired' | 'titleTooLong' }

/** Longest title the API takes. */
export const TITLE_MAX = 200

export function emptyTranslations<F extends string>(fields: readonly F[]): TranslationDraft<F> {
  const empty = Object.fromEntries(fields.map((field) => [field, ''])) as Record<F, string>
  return Object.fromEntries(LANGUAGES.map((lang) => [lang, { ...empty }])) as TranslationDraft<F>
}

/** The draft of stored translations (each language once; missing ones empty). */
export function translationsDraft<F extends string, T extends { lang: Language } & Record<F, string>>(
  fields: readonly F[],
  stored: readonly T[],
): TranslationDraft<F> {
  const draft = emptyTranslations(fields)
  for (const item of stored) for (const field of fields) draft[item.lang][field] = item[field]
  return draft
}

/** The translations to send, or the first problem found, language by language in the order of LANGUAGES. */
export function readTranslations<F extends string>(
  draft: TranslationDraft<F>,
  fields: readonly F[],
): { ok: true; value: ({ lang: Language } & Record<F, string>)[] } | ({ ok: false } & TranslationError) {
  const value: ({ lang: Language } & Record<F, string>)[] = []
  for (const lang of LANGUAGES) {
    const texts = Object.fromEntries(fields.map((field) => [field, draft[lang][field].trim()])) as Record<F, string>
    const title = (texts as Record<string, string>).title ?? ''
    const filled = fields.some((field) => texts[field] !== '')
    if (!filled) {
      if (lang === 'en') return { ok: false, lang, error: 'englishRequired' }
      continue
    }
    if (title === '') return { ok: false, lang, error: 'titleRequired' }
    if (title.length > TITLE_MAX) return { ok: false, lang, error: 'titleTooLong' }
    value.push({ lang, ...texts })
  }
  return { ok: true, value }
}
