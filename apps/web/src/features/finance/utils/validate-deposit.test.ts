import { describe, expect, it } from 'vitest'
import { validateDeposit } from './validate-deposit.ts'

const refused = (key: string, params?: Record<string, string | number>) => ({
  ok: false,
  notice: params ? { key, params } : { key },
})

describe('validateDeposit', () => {
  it('asks for the deposit amount when nothing is typed', () => {
    expect(validateDeposit('', 6, 100n)).toEqual(refused('finance.enterAmount'))
  })

  it('refuses malformed amounts and too many decimals', () => {
    expect(validateDeposit('1,5', 6, undefined)).toEqual(refused('assets.amountInvalid'))
    expect(validateDeposit('0', 6, undefined)).toEqual(refused('assets.amountInvalid'))
    expect(validateDeposit('1.0000001', 6, undefined)).toEqual(refused('assets.amountDecimals', { decimals: 6 }))
  })

  it('refuses more than the available balance, accepts all of it', () => {
    expect(validateDeposit('100.000001', 6, 100_000_000n)).toEqual(refused('common.insufficientBalance'))
    expect(validateDeposit('100', 6, 100_000_000n)).toEqual({ ok: true, value: 100_000_000n })
    expect(validateDeposit('1', 6, 0n)).toEqual(refused('common.insufficientBalance'))
  })

  it('leaves the balance to the server while it is unknown', () => {
    expect(validateDeposit('5000', 6, undefined)).toEqual({ ok: true, value: 5_000_000_000n })
  })
})
