import { describe, expect, it } from 'vitest'
import { type MarketRules, maxOrderAmount, orderTotal, validateOrder } from './order-form.ts'

/** The default market: 0.0001 USDT ticks, 0.01 PLG lots, orders of 1 … 10,000,000 PLG. */
const market: MarketRules = {
  symbol: 'PLG',
  quote: 'USDT',
  base_decimals: 9,
  quote_decimals: 6,
  tick_size: '100',
  lot_size: '10000000',
  min_amount: '1000000000',
  max_amount: '10000000000000000',
}

const refused = (key: string, params?: Record<string, string | number>) => ({
  ok: false,
  notice: params ? { key, params } : { key },
})

describe('validateOrder', () => {
  it('asks for the price, then the amount', () => {
    expect(validateOrder('buy', '', '10', market, undefined)).toEqual(refused('trade.enterPrice'))
    expect(validateOrder('buy', '0.5', ' ', market, undefined)).toEqual(refused('trade.enterAmount'))
  })

  it('refuses a price off the tick or with more decimals than USDT has', () => {
    expect(validateOrder('sell', '0.50005', '10', market, undefined)).toEqual(
      refused('trade.offTick', { tick: '0.0001', unit: 'USDT' }),
    )
    expect(validateOrder('sell', '0.5000001', '10', market, undefined)).toEqual(
      refused('assets.amountDecimals', { decimals: 6 }),
    )
    expect(validateOrder('sell', '0', '10', market, undefined)).toEqual(refused('assets.amountInvalid'))
    expect(validateOrder('sell', '-1', '10', market, undefined)).toEqual(refused('assets.amountInvalid'))
  })

  it('refuses an amount off the lot, with too many decimals, below the minimum or above the maximum', () => {
    expect(validateOrder('sell', '0.5', '10.005', market, undefined)).toEqual(
      refused('trade.offLot', { lot: '0.01', unit: 'PLG' }),
    )
    expect(validateOrder('sell', '0.5', '1.0000000001', market, undefined)).toEqual(
      refused('assets.amountDecimals', { decimals: 9 }),
    )
    expect(validateOrder('sell', '0.5', '0.99', market, undefined)).toEqual(
      refused('trade.belowMinimum', { min: '1', unit: 'PLG' }),
    )
    expect(validateOrder('sell', '0.5', '10000000.01', market, undefined)).toEqual(
      refused('trade.aboveMaximum', { max: '10,000,000', unit: 'PLG' }),
    )
  })

  it('checks a sell against the available PLG and a buy against the available USDT', () => {
    // 100 PLG at 0.5 USDT = 50 USDT.
    const ok = { ok: true, price: 500_000n, amount: 100_000_000_000n, total: 50_000_000n }
    expect(validateOrder('sell', '0.5', '100', market, 100_000_000_000n)).toEqual(ok)
    expect(validateOrder('sell', '0.5', '100', market, 99_999_999_999n)).toEqual(refused('common.insufficientBalance'))
    expect(validateOrder('buy', '0.5', '100', market, 50_000_000n)).toEqual(ok)
    expect(validateOrder('buy', '0.5', '100', market, 49_999_999n)).toEqual(refused('common.insufficientBalance'))
    // A buy's PLG balance does not matter, nor a sell's USDT: the balance passed is the asset spent.
    expect(validateOrder('buy', '0.5', '100', market, undefined)).toEqual(ok)
  })
})

describe('orderTotal', () => {
  it('is exact on the tick and lot, rounded up otherwise', () => {
    expect(orderTotal(500_000n, 100_000_000_000n, 9)).toBe(50_000_000n)
    expect(orderTotal(100n, 10_000_000n, 9)).toBe(1n)
    expect(orderTotal(1n, 1n, 9)).toBe(1n)
    expect(orderTotal(123_456_789n, 10n ** 30n, 9)).toBe(123_456_789n * 10n ** 21n)
  })
})

describe('maxOrderAmount', () => {
  it('sells the whole available balance rounded down to the lot', () => {
    expect(maxOrderAmount('sell', null, 12_345_678_901n, market)).toBe(12_340_000_000n)
    expect(maxOrderAmount('sell', null, 0n, market)).toBe(0n)
  })

  it('buys what the USDT pays at the price, rounded down to the lot', () => {
    // 10 USDT at 0.3 USDT: 33.333… PLG → 33.33 PLG.
    expect(maxOrderAmount('buy', 300_000n, 10_000_000n, market)).toBe(33_330_000_000n)
    expect(maxOrderAmount('buy', null, 10_000_000n, market)).toBeNull()
  })

  it('never exceeds the largest order', () => {
    expect(maxOrderAmount('sell', null, 10n ** 30n, market)).toBe(10_000_000_000_000_000n)
  })
})
