import { describe, expect, it } from 'vitest'
import { checkAdjustment } from './adjustment.ts'

const reason = 'Refund of a lost deposit, ticket 42'

describe('manual adjustment input', () => {
  it("sends a credit as positive and a debit as negative amount in the coin's units", () => {
    expect(checkAdjustment({ direction: 'credit', amount: '12.5', reason, decimals: 6 })).toEqual({
      ok: true,
      amount: '12.5',
      reason,
    })
    expect(checkAdjustment({ direction: 'debit', amount: '0.000000001', reason: ` ${reason} `, decimals: 9 })).toEqual({
      ok: true,
      amount: '-0.000000001',
      reason,
    })
  })

  it('refuses an empty, malformed, zero or too precise amount', () => {
    const check = (amount: string) => checkAdjustment({ direction: 'credit', amount, reason, decimals: 6 })
    expect(check('')).toMatchObject({ ok: false, error: 'amountEmpty' })
    expect(check('-5')).toMatchObject({ ok: false, error: 'amountInvalid' })
    expect(check('0.000')).toMatchObject({ ok: false, error: 'amountZero' })
    expect(check('1.0000001')).toMatchObject({ ok: false, error: 'amountDecimals', params: { decimals: 6 } })
  })

  it('makes the reason mandatory', () => {
    const check = (text: string) => checkAdjustment({ direction: 'credit', amount: '1', reason: text, decimals: 6 })
    expect(check('   ')).toMatchObject({ ok: false, error: 'reasonRequired' })
    expect(check('ab')).toMatchObject({ ok: false, error: 'reasonTooShort', params: { min: 3 } })
    expect(check('x'.repeat(501))).toMatchObject({ ok: false, error: 'reasonTooLong', params: { max: 500 } })
  })
})
