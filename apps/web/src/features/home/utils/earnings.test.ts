import type { AssetBalance } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import { balanceInUsdt, creditsInUsdt } from './earnings.ts'

const price = { price: '0.5', symbol: 'PLG' }

describe('creditsInUsdt', () => {
  it('values USDT at par and the token at the price, rounded down', () => {
    const credits = [
      { coin: 'PLG', decimals: 9, amount: '7066666667' },
      { coin: 'USDT', decimals: 6, amount: '71428' },
    ]
    // 7.066666667 PLG × 0.5 = 3.5333333335 → 3.533333 USDT; + 0.071428.
    expect(creditsInUsdt(credits, price)).toBe(3_533_333n + 71_428n)
    expect(creditsInUsdt([], price)).toBe(0n)
  })

  it('cannot value the token without its price, nor a coin that has none', () => {
    expect(creditsInUsdt([{ coin: 'PLG', decimals: 9, amount: '1' }], undefined)).toBeNull()
    expect(creditsInUsdt([{ coin: 'SOL', decimals: 9, amount: '1' }], price)).toBeNull()
    expect(creditsInUsdt([{ coin: 'USDT', decimals: 6, amount: '5' }], undefined)).toBe(5n)
  })
})

describe('balanceInUsdt', () => {
  it('adds the assets’ USDT values, counting an asset without a price as nothing', () => {
    const asset = (usdt_value: string | null) => ({ usdt_value }) as AssetBalance
    expect(balanceInUsdt([asset('1500000'), asset('250000'), asset(null)])).toBe(1_750_000n)
    expect(balanceInUsdt([])).toBe(0n)
  })
})
