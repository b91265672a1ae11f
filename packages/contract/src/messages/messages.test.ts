import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../i18n.ts'
import { amountParam, messages, translate } from './index.ts'

describe('message catalogue', () => {
  const keys = Object.keys(messages.en).sort()
  it.each(LANGUAGES)('%s has every key of en and no other, none empty', (lang) => {
    const own = Object.keys(messages[lang]).sort()
    expect(own).toEqual(keys)
    for (const key of own) expect(messages[lang][key as keyof typeof messages.en].trim()).not.toBe('')
  })
  it.each(LANGUAGES)('%s keeps the placeholders of en', (lang) => {
    for (const key of keys) {
      const names = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()
      const k = key as keyof typeof messages.en
      expect(names(messages[lang][k]), `${lang} ${key}`).toEqual(names(messages.en[k]))
    }
  })
  it('fills placeholders and leaves unknown ones', () => {
    expect(translate('en', 'error.invalidParams', { detail: '/address' })).toBe('Invalid request: /address')
    expect(translate('zh', 'error.invalidParams')).toBe('请求无效：{{detail}}')
  })
  it("writes an amount grouped in the message's language with every decimal, exactly", () => {
    const min = amountParam(1_236_262_500_001n, 9)
    expect(translate('en', 'trade.belowMinimum', { min, unit: 'PLG' })).toBe(
      'The amount cannot be less than 1,236.262500001 PLG',
    )
    expect(translate('vi', 'trade.belowMinimum', { min, unit: 'PLG' })).toBe(
      'Số lượng không được nhỏ hơn 1.236,262500001 PLG',
    )
    // Beyond a float's precision, and with its unit.
    const max = amountParam(`${'9'.repeat(30)}1`, 6, 'USDT')
    expect(translate('zh', 'admin.tooLarge', { field: 'x', max })).toBe(
      `x 不能大于 9,${'999,'.repeat(7)}999.999991 USDT`,
    )
  })
})
