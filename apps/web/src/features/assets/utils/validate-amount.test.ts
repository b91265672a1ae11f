import { describe, expect, it } from 'vitest'
import { validateTopUpAmount } from './validate-amount.ts'

describe('validateTopUpAmount', () => {
  it('asks for the recharge quantity when nothing is typed', () => {
    expect(validateTopUpAmount('', 6)).toEqual({ ok: false, notice: { key: 'assets.enterRechargeAmount' } })
    expect(validateTopUpAmount('   ', 6)).toEqual({ ok: false, notice: { key: 'assets.enterRechargeAmount' } })
  })

  it.each(['abc', '1.2.3', '-5', '1e6', '.5', '0', '0.000', `1${'0'.repeat(38)}`])('refuses %s as invalid', (text) => {
    expect(validateTopUpAmount(text, 6)).toEqual({ ok: false, notice: { key: 'assets.amountInvalid' } })
  })

  it('names the allowed decimals when there are too many', () => {
    expect(validateTopUpAmount('1.1234567', 6)).toEqual({
      ok: false,
      notice: { key: 'assets.amountDecimals', params: { decimals: 6 } },
    })
    expect(validateTopUpAmount('1.5', 0)).toEqual({
      ok: false,
      notice: { key: 'assets.amountDecimals', params: { decimals: 0 } },
    })
  })

  it('converts to base units exactly', () => {
    expect(validateTopUpAmount('100.5', 6)).toEqual({ ok: true, value: 100_500_000n })
    expect(validateTopUpAmount('0.000001', 6)).toEqual({ ok: true, value: 1n })
    expect(validateTopUpAmount('9007199254740993', 9)).toEqual({ ok: true, value: 9_007_199_254_740_993_000_000_000n })
  })

  it('refuses more than the wallet holds, accepts all of it', () => {
    expect(validateTopUpAmount('10.000001', 6, 10_000_000n)).toEqual({
      ok: false,
      notice: { key: 'assets.exceedsWalletBalance' },
    })
    expect(validateTopUpAmount('10', 6, 10_000_000n)).toEqual({ ok: true, value: 10_000_000n })
  })

  it('leaves the balance check to the chain when the balance is unknown or there is no token account', () => {
    expect(validateTopUpAmount('10', 6, undefined)).toEqual({ ok: true, value: 10_000_000n })
    expect(validateTopUpAmount('10', 6, null)).toEqual({ ok: true, value: 10_000_000n })
  })
})
