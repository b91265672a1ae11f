import { describe, expect, it } from 'vitest'
import { swapDepth, validateSwap } from './swap.ts'

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

describe('swapDepth', () => {
  const level = (price: bigint, amount: bigint) => ({ price: `${price}`, amount: `${amount}`, orders: 1 })
  // Asks of 5 PLG at 0.7 and 5 PLG at 0.8 USDT (PLG 9 decimals, prices in USDT base units per whole PLG).
  const book = {
    asks: [level(700_000n, 5_000_000_000n), level(800_000n, 5_000_000_000n)],
    bids: [level(600_000n, 2_500_000_000n)],
  }

  it('gives what each side can fill: the bids in {product}, the asks in USDT', () => {
    expect(swapDepth(book, 'quote', 9, 8)).toEqual({ amount: 7_500_000n, more: false })
    expect(swapDepth(book, 'base', 9, 8)).toEqual({ amount: 2_500_000_000n, more: false })
  })

  it('rounds the USDT value down and says when the book holds more than the levels shown', () => {
    expect(swapDepth({ asks: [level(3n, 1n), level(3n, 1_000_000_000n)], bids: [] }, 'quote', 9, 2)).toEqual({
      amount: 3n,
      more: true,
    })
  })

  it('is null on an empty side', () => {
    expect(swapDepth({ asks: [], bids: book.bids }, 'quote', 9, 8)).toBeNull()
    expect(swapDepth({ asks: book.asks, bids: [] }, 'base', 9, 8)).toBeNull()
  })
})
