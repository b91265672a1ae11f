/** The five languages of the product (docs/product.md#languages). */
export const LANGUAGES = ['en', 'zh', 'ja', 'ko', 'vi'] as const
export type Language = (typeof LANGUAGES)[number]

/** Default language of requests when the header is missing or unknown (docs/product.md#languages). */
export const DEFAULT_REQUEST_LANGUAGE: Language = 'zh'
/** Default interface language (docs/product.md#languages). */
export const DEFAULT_UI_LANGUAGE: Language = 'en'

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)

/** Picks the first supported language of an accept-language header ("zh-CN,zh;q=0.9,en;q=0.8" → "zh"). */
export function pickLanguage(
  header: string | undefined | null,
  fallback: Language = DEFAULT_REQUEST_LANGUAGE,
): Language {
  if (!header) return fallback
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1, index }
    })
    .filter((entry) => entry.tag && Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { tag } of ranked) {
    const base = tag.split('-')[0]
    if (isLanguage(base)) return base
  }
  return fallback
}
