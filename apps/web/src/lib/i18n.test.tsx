// @vitest-environment happy-dom
import i18next from 'i18next'
import { expect, it } from 'vitest'
import { formatUnits } from './format.ts'
import { initI18n } from './i18n.ts'
import { LANGUAGE_KEY } from './language.ts'

it('starts in the stored language, resolved, so figures and the switcher follow it from the first screen', async () => {
  localStorage.setItem(LANGUAGE_KEY, 'vi')
  await initI18n()
  expect(i18next.resolvedLanguage).toBe('vi')
  expect(document.documentElement.lang).toBe('vi')
  expect(formatUnits(123456789n, 2, i18next.resolvedLanguage)).toBe('1.234.567,89')
})
