import { describe, expect, it } from 'vitest'
import { validateSwap } from './swap.ts'

const refused = (key: string, params?: Record<string, string | number>) => ({
  ok: false,
  notice: params ? { key, params } : { key },
})

describe('validateSwap', () => {
  it('asks for an amount and refuses malformed ones', () => {
    expect(validateSwap('', 9, 10n)).toEqual(refused('trade.enterAmount'))
    expect(validateSwap('abc', 9, undefined)).toEqual(refused('assets.amountInvalid'))
    expect(validateSwap('0', 6, undefined)).toEqual(refused('assets.amountInvalid'))
    expect(validateSwap('1.0000001', 6, undefined)).toEqual(refused('assets.amountDecimals', { decimals: 6 }))
  })

  it('refuses more than the available balance of the asset given, accepts all of it', () => {
    expect(validateSwap('10', 6, 9_999_999n)).toEqual(refused('common.insufficientBalance'))
    expect(validateSwap('10', 6, 10_000_000n)).toEqual({ ok: true, value: 10_000_000n })
    expect(validateSwap('10', 9, undefined)).toEqual({ ok: true, value: 10_000_000_000n })
  })
})
