import type { Language } from '../i18n.ts'
import { type Catalogue, en, type MessageKey } from './en.ts'
import { ja } from './ja.ts'
import { ko } from './ko.ts'
import { type MessageParams, paramText } from './params.ts'
import { vi } from './vi.ts'
import { zh } from './zh.ts'

export { type AmountParam, amountParam, type MessageParams } from './params.ts'
export type { Catalogue, MessageKey }
export const messages: Record<Language, Catalogue> = { en, zh, ja, ko, vi }

/** Translates a catalogue key, filling {{name}} placeholders (amounts written in that language). */
export function translate(lang: Language, key: MessageKey, params: MessageParams = {}): string {
  const template = messages[lang][key] ?? messages.en[key]
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined
    return value === undefined ? whole : paramText(lang, value)
  })
}
