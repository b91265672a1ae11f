import { describe, expect, it } from 'vitest'
import { type IntervalFills, VALUATION_INTERVALS, valuationBand, valuationOf } from './price.ts'

const PLG = 1_000_000_000n
const REFERENCE = 500_000n // 0.5 USDT per PLG

/** One interval's in-band fills: `amount` PLG at `price` (USDT base units per PLG). */
const fills = (price: bigint, amount: bigint): IntervalFills => ({
  priceAmount: price * amount * PLG,
  amount: amount * PLG,
  quote: price * amount,
})
const add = (a: IntervalFills, b: IntervalFills): IntervalFills => ({
  priceAmount: a.priceAmount + b.priceAmount,
  amount: a.amount + b.amount,
  quote: a.quote + b.quote,
})

describe('the valuation price rule', () => {
  it('is the reference price without fills or below the minimum volume', () => {
    expect(valuationOf(REFERENCE, [], 0n)).toEqual({ price: REFERENCE, source: 'reference' })
    // 999.6 USDT of fills at 0.6 in two intervals, the minimum 1000 USDT.
    const thin = [fills(600_000n, 1000n), fills(600_000n, 666n)]
    expect(valuationOf(REFERENCE, thin, 1000_000_000n)).toEqual({ price: REFERENCE, source: 'reference' })
    expect(valuationOf(REFERENCE, [{ priceAmount: 0n, amount: 0n, quote: 0n }], 0n).source).toBe('reference')
  })

  it('is the price of a market that traded at it in every interval', () => {
    const steady = Array.from({ length: VALUATION_INTERVALS }, () => fills(550_000n, 100n))
    expect(valuationOf(REFERENCE, steady, 1000_000_000n)).toEqual({ price: 550_000n, source: 'trade' })
  })

  it('weighs the fills of an interval by volume and the intervals equally, empty ones at the reference', () => {
    // One interval: 3 PLG at 0.6 and 1 PLG at 0.4 → 0.55; another: 1 PLG at 0.45; 22 without fills.
    const intervals = [add(fills(600_000n, 3n), fills(400_000n, 1n)), fills(450_000n, 1n)]
    const expected = (550_000n + 450_000n + 22n * REFERENCE) / 24n
    expect(valuationOf(REFERENCE, intervals, 0n)).toEqual({ price: expected, source: 'trade' })
    // Half the window at 0.55, half without fills: half way.
    const half = Array.from({ length: 12 }, () => fills(550_000n, 100n))
    expect(valuationOf(REFERENCE, half, 0n).price).toBe(525_000n)
  })

  it('rounds down: each interval, then the mean', () => {
    // 1 PLG at 0.5 and 2 PLG at 0.5001 → 0.500066…; with 23 empty intervals the mean rounds down again.
    const interval = add(fills(500_000n, 1n), fills(500_100n, 2n))
    expect(interval.priceAmount / interval.amount).toBe(500_066n)
    expect(valuationOf(REFERENCE, [interval], 0n).price).toBe((500_066n + 23n * REFERENCE) / 24n)
    expect((500_066n + 23n * REFERENCE) % 24n).not.toBe(0n)
  })

  it('a burst confined to one interval moves it by at most band / 24', () => {
    const { high } = valuationBand(REFERENCE, 2000)
    const burst = [fills(high, 1_000_000n)]
    const moved = valuationOf(REFERENCE, burst, 0n).price - REFERENCE
    expect(moved).toBe((high - REFERENCE) / 24n)
    expect((moved * 10_000n) / REFERENCE).toBeLessThan(100n) // < 1 %
  })

  it('the band: reference ∓ band, rounded inwards', () => {
    expect(valuationBand(REFERENCE, 2000)).toEqual({ low: 400_000n, high: 600_000n })
    expect(valuationBand(7n, 5000)).toEqual({ low: 4n, high: 10n })
    expect(valuationBand(1n, 100)).toEqual({ low: 1n, high: 1n })
  })
})
