import { describe, expect, it } from 'vitest'
import { type PairFills, VALUATION_ACCOUNTS, VALUATION_INTERVALS, valuationBand, valuationOf } from './price.ts'

const USDT = 1_000_000n
const REFERENCE = 500_000n // 0.5 USDT per PLG
const MINIMUM = 1000n * USDT // the default minimum volume
/** What one account counts at most: 40 USDT. */
const CAP = MINIMUM / BigInt(VALUATION_ACCOUNTS)

/** Fills in `interval` between `maker` and `taker` of `quote` USDT base units at `price`. */
const fills = (interval: number, maker: string, taker: string, price: bigint, quote: bigint): PairFills => ({
  interval,
  maker,
  taker,
  priceQuote: price * quote,
  quote,
})

/** A market of `quote` USDT at `price` in each of `intervals`, each fill between two accounts of its own. */
const crowd = (price: bigint, quote: bigint, intervals: number[]) =>
  intervals.map((i) => fills(i, `seller${i}`, `buyer${i}`, price, quote))
const all = Array.from({ length: VALUATION_INTERVALS }, (_, i) => i)

describe('the valuation price rule', () => {
  it('is the reference price without fills or below the minimum volume', () => {
    expect(valuationOf(REFERENCE, [], 0n)).toEqual({ price: REFERENCE, source: 'reference' })
    // 999.6 USDT at 0.6, every account within its cap: thin.
    const thin = crowd(600_000n, 41_650_000n, all)
    expect(thin.reduce((sum, f) => sum + f.quote, 0n)).toBe(999_600_000n)
    expect(valuationOf(REFERENCE, thin, MINIMUM)).toEqual({ price: REFERENCE, source: 'reference' })
  })

  it('is the price of a market that traded at it in every interval', () => {
    expect(valuationOf(REFERENCE, crowd(550_000n, 100n * USDT, all), MINIMUM)).toEqual({
      price: 550_000n,
      source: 'trade',
    })
  })

  it('counts an account up to minQuoteVolume / VALUATION_ACCOUNTS: two accounts alone never make the volume', () => {
    // The probe: two accounts wash 1200 USDT at the band's edge every hour, 28,800 USDT a day. They count 80 USDT.
    const { high } = valuationBand(REFERENCE, 2000)
    const wash = all.map((i) => fills(i, i % 2 ? 'a' : 'b', i % 2 ? 'b' : 'a', high, 1200n * USDT))
    expect(valuationOf(REFERENCE, wash, MINIMUM)).toEqual({ price: REFERENCE, source: 'reference' })
    // VALUATION_ACCOUNTS accounts in a ring, each trading with the next: each trades exactly its cap (half of each of
    // its two fills is its own), and together they make the minimum. One account fewer does not.
    const ring = (accounts: number) =>
      Array.from({ length: accounts }, (_, i) =>
        fills(i % VALUATION_INTERVALS, `u${i}`, `u${(i + 1) % accounts}`, high, CAP),
      )
    expect(valuationOf(REFERENCE, ring(VALUATION_ACCOUNTS), MINIMUM).source).toBe('trade')
    expect(valuationOf(REFERENCE, ring(VALUATION_ACCOUNTS - 1), MINIMUM).source).toBe('reference')
  })

  it('moves by at most band × accounts × cap / minimum for the wash trades of a few accounts', () => {
    const { low, high } = valuationBand(REFERENCE, 2000)
    const market = crowd(REFERENCE, 100n * USDT, all)
    expect(valuationOf(REFERENCE, market, MINIMUM).price).toBe(REFERENCE)
    for (const edge of [low, high]) {
      // Two accounts washing at the edge every hour; then the same spread over six accounts (three pairs).
      const two = all.map((i) => fills(i, 'a', 'b', edge, 1200n * USDT))
      const six = all.map((i) => fills(i, `a${i % 3}`, `b${i % 3}`, edge, 1200n * USDT))
      for (const [wash, accounts] of [
        [two, 2n],
        [six, 6n],
      ] as const) {
        const { price } = valuationOf(REFERENCE, [...market, ...wash], MINIMUM)
        const moved = price > REFERENCE ? price - REFERENCE : REFERENCE - price
        const bound = ((high - REFERENCE) * accounts * CAP) / MINIMUM
        expect(moved).toBeGreaterThan(0n)
        expect(moved).toBeLessThanOrEqual(bound)
      }
      // Two accounts: under 2 % (1.6 % at most); here, with the market's own volume, less.
      const { price } = valuationOf(REFERENCE, [...market, ...two], MINIMUM)
      const moved = price > REFERENCE ? price - REFERENCE : REFERENCE - price
      expect(moved * 100n).toBeLessThan(2n * REFERENCE)
    }
  })

  it("weighs an interval's fills by their counted USDT, completed with the reference up to its share of the minimum", () => {
    // One interval: 60 USDT at 0.6 and 20 USDT at 0.4 (four accounts within their caps) → 0.55.
    const one = [fills(0, 'a', 'b', 600_000n, 60n * USDT), fills(0, 'c', 'd', 400_000n, 20n * USDT)]
    // Another: 20.833333 USDT at 0.45, half of its share of the minimum (41.666666 USDT) → halfway to the reference.
    const half = fills(1, 'e', 'f', 450_000n, 20_833_333n)
    // The rest of the minimum from other intervals at the reference, so that the window is not thin.
    const rest = crowd(REFERENCE, 80n * USDT, all.slice(2))
    const { price, source } = valuationOf(REFERENCE, [...one, half, ...rest], MINIMUM)
    expect(source).toBe('trade')
    // 0.55, 0.475 and 22 intervals at the reference.
    expect(price).toBe((550_000n + 475_000n + 22n * REFERENCE) / 24n)
    // Half the window at 0.55 and the other half at the reference: half way.
    const halfWay = [...crowd(550_000n, 100n * USDT, all.slice(0, 12)), ...crowd(REFERENCE, 100n * USDT, all.slice(12))]
    expect(valuationOf(REFERENCE, halfWay, MINIMUM).price).toBe(525_000n)
  })

  it('rounds down: each interval, then the mean', () => {
    // 20 USDT at 0.5 and 40 USDT at 0.5001 → 0.500066…; with 23 intervals at the reference the mean rounds down again.
    const interval = [fills(0, 'a', 'b', 500_000n, 20n * USDT), fills(0, 'c', 'd', 500_100n, 40n * USDT)]
    const rest = crowd(REFERENCE, 80n * USDT, all.slice(1))
    expect(valuationOf(REFERENCE, [...interval, ...rest], MINIMUM).price).toBe((500_066n + 23n * REFERENCE) / 24n)
    expect((500_066n + 23n * REFERENCE) % 24n).not.toBe(0n)
  })

  it('without a minimum volume every account weighs alike', () => {
    // Two accounts trading 1000 USDT at 0.45 and two others 1 USDT at 0.51, in one interval: the mean of the two.
    const intervals = [fills(0, 'whale', 'w2', 450_000n, 1000n * USDT), fills(0, 'x', 'y', 510_000n, USDT)]
    expect(valuationOf(REFERENCE, intervals, 0n)).toEqual({
      price: (480_000n + 23n * REFERENCE) / 24n,
      source: 'trade',
    })
  })

  it('the band: reference ∓ band, rounded inwards', () => {
    expect(valuationBand(REFERENCE, 2000)).toEqual({ low: 400_000n, high: 600_000n })
    expect(valuationBand(7n, 5000)).toEqual({ low: 4n, high: 10n })
    expect(valuationBand(1n, 100)).toEqual({ low: 1n, high: 1n })
  })
})
