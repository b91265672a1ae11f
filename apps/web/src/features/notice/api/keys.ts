import { domainKeys } from '@/lib/query-keys.ts'

/**
 * Query keys of the notice feature. The server answers in the request's language, so every key carries the
 * interface language: switching language loads the translated notices and banners.
 */
export const noticeKeys = {
  list: (lang: string) => [...domainKeys.notice, 'list', lang] as const,
  detail: (id: string, lang: string) => [...domainKeys.notice, 'detail', id, lang] as const,
  banners: (lang: string) => [...domainKeys.notice, 'banners', lang] as const,
  /** The announced changes: data without text, the same in every language. */
  changes: () => [...domainKeys.notice, 'changes'] as const,
  /** The signed-in user's campaigns with their progress. */
  campaigns: (address: string, lang: string) => [...domainKeys.notice, 'campaigns', address, lang] as const,
}
