import type { Language } from '../i18n.ts'
import { type Catalogue, en, type MessageKey } from './en.ts'
import { ja } from './ja.ts'
import { ko } from './ko.ts'
import { vi } from './vi.ts'
import { zh } from './zh.ts'

export type { Catalogue, MessageKey }
export const messages: Record<Language, Catalogue> = { en, zh, ja, ko, vi }

/** Translates a catalogue key, filling {{name}} placeholders. */
export function translate(lang: Language, key: MessageKey, params: Record<string, string | number> = {}): string {
  const template = messages[lang][key] ?? messages.en[key]
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole))
}
