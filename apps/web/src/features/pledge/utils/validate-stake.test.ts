import { describe, expect, it } from 'vitest'
import { validateStake } from './validate-stake.ts'

// PLG: 9 decimals, minimum 200 PLG.
const config = { symbol: 'PLG', decimals: 9, min_amount: '200000000000' }
const refused = (key: string, params?: Record<string, string | number>) => ({
  ok: false,
  notice: params ? { key, params } : { key },
})

describe('validateStake', () => {
  it('asks for the amount of the product when nothing is typed', () => {
    expect(validateStake('', config, 1_000n)).toEqual(refused('pledge.enterAmount', { product: 'PLG' }))
    expect(validateStake('  ', config, undefined)).toEqual(refused('pledge.enterAmount', { product: 'PLG' }))
  })

  it('refuses malformed amounts and too many decimals', () => {
    expect(validateStake('abc', config, undefined)).toEqual(refused('assets.amountInvalid'))
    expect(validateStake('0', config, undefined)).toEqual(refused('assets.amountInvalid'))
    expect(validateStake('200.0000000001', config, undefined)).toEqual(
      refused('assets.amountDecimals', { decimals: 9 }),
    )
  })

  it('refuses less than the minimum, naming it in the product', () => {
    expect(validateStake('199.999999999', config, undefined)).toEqual(
      refused('pledge.belowMinimum', { min: '200', unit: 'PLG' }),
    )
    expect(validateStake('200', config, undefined)).toEqual({ ok: true, value: 200_000_000_000n })
  })

  it('refuses more than can be spent, accepts all of it', () => {
    expect(validateStake('300.000000001', config, 300_000_000_000n)).toEqual(refused('pledge.exceedsBalance'))
    expect(validateStake('300', config, 300_000_000_000n)).toEqual({ ok: true, value: 300_000_000_000n })
    expect(validateStake('250', config, 0n)).toEqual(refused('pledge.exceedsBalance'))
  })

  it('checks the minimum before the balance, and the balance only when known', () => {
    expect(validateStake('100', config, 0n)).toEqual(refused('pledge.belowMinimum', { min: '200', unit: 'PLG' }))
    expect(validateStake('5000', config, undefined)).toEqual({ ok: true, value: 5_000_000_000_000n })
  })

  it('names a fractional minimum exactly', () => {
    expect(validateStake('1', { ...config, min_amount: '1500000001' }, undefined)).toEqual(
      refused('pledge.belowMinimum', { min: '1.500000001', unit: 'PLG' }),
    )
  })
})
