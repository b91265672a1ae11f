import { LANGUAGES, LEDGER_TYPES } from '@solpledge/contract/client'
import { expect, it } from 'vitest'
import en from './en.json'
import ja from './ja.json'
import ko from './ko.json'
import vi from './vi.json'
import zh from './zh.json'

const strings = { en, zh, ja, ko, vi }

// The server can only write ledger transfers of a type in LEDGER_TYPES (TransferInput.type is typed with it), so
// this covers every row the asset history can show.
it.each(LANGUAGES)('labels every ledger type and both accounts in %s', (language) => {
  const detail = strings[language].assets.detail
  const types: Record<string, unknown> = detail.types
  const unlabelled = LEDGER_TYPES.filter((type) => typeof types[type] !== 'string' || types[type] === '')
  expect(unlabelled).toEqual([])
  expect(Object.keys(types).sort()).toEqual([...LEDGER_TYPES].sort())
  expect(detail.accounts.available).not.toBe('')
  expect(detail.accounts.locked).not.toBe('')
})
