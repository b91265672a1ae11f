import i18next from 'i18next'
import { afterAll, describe, expect, it } from 'vitest'
import { validateTopUpAmount, validateWithdrawAmount, type WithdrawLimits, withdrawReceive } from './validate-amount.ts'

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

describe('validateWithdrawAmount', () => {
  // USDT: 6 decimals, minimum 10, fee 1, 250.5 available.
  const usdt: WithdrawLimits = {
    decimals: 6,
    symbol: 'USDT',
    is_withdraw: 1,
    min_atm_money: '10000000',
    fee: '1000000',
    available: '250500000',
  }
  const refused = (key: string, params?: Record<string, string | number>) => ({
    ok: false,
    notice: params ? { key, params } : { key },
  })

  it('refuses an asset that does not support withdrawal, whatever is typed', () => {
    expect(validateWithdrawAmount('20', { ...usdt, is_withdraw: 0 })).toEqual(refused('assets.withdrawUnsupported'))
  })

  it('asks for the withdrawal amount when nothing is typed', () => {
    expect(validateWithdrawAmount('', usdt)).toEqual(refused('assets.enterWithdrawAmount'))
    expect(validateWithdrawAmount('  ', usdt)).toEqual(refused('assets.enterWithdrawAmount'))
  })

  it('refuses malformed amounts and too many decimals like the top-up does', () => {
    expect(validateWithdrawAmount('abc', usdt)).toEqual(refused('assets.amountInvalid'))
    expect(validateWithdrawAmount('0', usdt)).toEqual(refused('assets.amountInvalid'))
    expect(validateWithdrawAmount('12.1234567', usdt)).toEqual(refused('assets.amountDecimals', { decimals: 6 }))
  })

  it('refuses less than the minimum, naming it in the asset unit', () => {
    expect(validateWithdrawAmount('9.999999', usdt)).toEqual(
      refused('assets.withdrawBelowMinimum', { min: '10', unit: 'USDT' }),
    )
    expect(validateWithdrawAmount('10', usdt)).toEqual({ ok: true, value: 10_000_000n })
  })

  it('refuses an amount that the fee would eat entirely', () => {
    const noMinimum = { ...usdt, min_atm_money: '0', fee: '1500000' }
    expect(validateWithdrawAmount('1.5', noMinimum)).toEqual(
      refused('assets.withdrawFeeTooHigh', { fee: '1.5', unit: 'USDT' }),
    )
    expect(validateWithdrawAmount('0.5', noMinimum)).toEqual(
      refused('assets.withdrawFeeTooHigh', { fee: '1.5', unit: 'USDT' }),
    )
    expect(validateWithdrawAmount('1.500001', noMinimum)).toEqual({ ok: true, value: 1_500_001n })
  })

  it('refuses more than the available balance, accepts all of it', () => {
    expect(validateWithdrawAmount('250.500001', usdt)).toEqual(refused('common.insufficientBalance'))
    expect(validateWithdrawAmount('250.5', usdt)).toEqual({ ok: true, value: 250_500_000n })
  })

  it('names a minimum and a fee as the formatter writes them in the interface language: grouped, every decimal', async () => {
    const large = { ...usdt, min_atm_money: '1000500000', fee: '1250000000', available: '5000000000' }
    await i18next.init({ lng: 'vi', resources: { vi: { translation: { x: 'x' } }, en: { translation: { x: 'x' } } } })
    expect(validateWithdrawAmount('999', large)).toEqual(
      refused('assets.withdrawBelowMinimum', { min: '1.000,5', unit: 'USDT' }),
    )
    await i18next.changeLanguage('en')
    expect(validateWithdrawAmount('999', large)).toEqual(
      refused('assets.withdrawBelowMinimum', { min: '1,000.5', unit: 'USDT' }),
    )
    expect(validateWithdrawAmount('1200', large)).toEqual(
      refused('assets.withdrawFeeTooHigh', { fee: '1,250', unit: 'USDT' }),
    )
  })
  afterAll(() => i18next.changeLanguage('en'))

  it('checks the minimum before the balance', () => {
    expect(validateWithdrawAmount('5', { ...usdt, available: '0' })).toEqual(
      refused('assets.withdrawBelowMinimum', { min: '10', unit: 'USDT' }),
    )
  })

  it('accepts any positive amount when there is neither minimum nor fee', () => {
    expect(validateWithdrawAmount('0.000001', { ...usdt, min_atm_money: '0', fee: '0' })).toEqual({
      ok: true,
      value: 1n,
    })
  })
})

describe('withdrawReceive', () => {
  const usdt = { decimals: 6, fee: '1000000' }

  it('is the amount less the fee, exactly', () => {
    expect(withdrawReceive('25', usdt)).toBe(24_000_000n)
    expect(withdrawReceive('1.000001', usdt)).toBe(1n)
    expect(withdrawReceive('9007199254740993', { decimals: 9, fee: '1' })).toBe(9_007_199_254_740_992_999_999_999n)
    expect(withdrawReceive('3', { decimals: 6, fee: '0' })).toBe(3_000_000n)
  })

  it('is 0 when the fee takes it all', () => {
    expect(withdrawReceive('1', usdt)).toBe(0n)
    expect(withdrawReceive('0.5', usdt)).toBe(0n)
  })

  it('is unknown while the text is not an amount of the asset', () => {
    expect(withdrawReceive('', usdt)).toBeNull()
    expect(withdrawReceive('1.2.3', usdt)).toBeNull()
    expect(withdrawReceive('1.1234567', usdt)).toBeNull()
  })
})
