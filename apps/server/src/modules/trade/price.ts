// The {product} prices (docs/trade.md "Valuation price"): the quick trade's last price, and the valuation price that
// everything else uses, which one trade or a burst of wash trades cannot push around.
import type { BusinessConfig } from '@solpledge/contract'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { getBusinessConfig } from '../config/index.ts'

/** The price of the market's last trade (USDT base units per whole token), or null before the first trade. */
export async function lastTradePrice(db: Database, symbol: string): Promise<bigint | null> {
  const row = await db.selectFrom('trade_markets').select('last_price').where('symbol', '=', symbol).executeTakeFirst()
  return row?.last_price == null ? null : BigInt(row.last_price)
}

/** The window is cut into this many equal intervals, each weighing the same (one hour each for a 24 h window). */
export const VALUATION_INTERVALS = 24

/** The in-band fills of one interval of the window: Σ price × amount, Σ amount ({product} base units), Σ quote. */
export interface IntervalFills {
  priceAmount: bigint
  amount: bigint
  quote: bigint
}

export interface Valuation {
  /** USDT base units per whole token. */
  price: bigint
  /** 'trade' when computed from fills, 'reference' when the window's in-band volume was below the minimum. */
  source: 'trade' | 'reference'
}

/** The prices a fill may have to count: reference × (1 ∓ band), rounded inwards (both bounds included). */
export function valuationBand(reference: bigint, bandBps: number) {
  return {
    low: (reference * BigInt(10_000 - bandBps) + 9_999n) / 10_000n,
    high: (reference * BigInt(10_000 + bandBps)) / 10_000n,
  }
}

/**
 * The rule, on the in-band fills of the window's intervals (at most VALUATION_INTERVALS; intervals without fills may
 * be left out): below `minQuoteVolume` USDT of them in all, the reference price; otherwise the mean over all the
 * intervals of each one's volume-weighted price floor(Σ price × amount / Σ amount), an interval without fills counting
 * as the reference price, rounded down. Every term lies within the band, so the result does too.
 */
export function valuationOf(reference: bigint, intervals: IntervalFills[], minQuoteVolume: bigint): Valuation {
  const traded = intervals.filter((interval) => interval.amount > 0n)
  const volume = traded.reduce((sum, interval) => sum + interval.quote, 0n)
  if (traded.length === 0 || volume < minQuoteVolume) return { price: reference, source: 'reference' }
  const sum = traded.reduce(
    (total, interval) => total + interval.priceAmount / interval.amount,
    BigInt(VALUATION_INTERVALS - traded.length) * reference,
  )
  return { price: sum / BigInt(VALUATION_INTERVALS), source: 'trade' }
}

interface Cached {
  /** The rule's inputs from the configuration: another reference price, band, … is computed at once. */
  key: string
  until: number
  value: Promise<Valuation>
}
/** Per database that buildApp gave a cache time: the latest valuation of each market, shared by concurrent calls. */
const caches = new WeakMap<Database, { ms: number; latest: Map<string, Cached> }>()

/**
 * Reuse each valuation price computed on `db` for `ms` milliseconds (VALUATION_CACHE_MS; 0 = compute it on every
 * call). The window's fills are aggregated on every computation, so a busy market needs this on hot paths.
 */
export function cacheValuations(db: Database, ms: number) {
  if (ms > 0) caches.set(db, { ms, latest: new Map() })
  else caches.delete(db)
}

/**
 * The valuation price of `symbol` now, under `config` (its reference price and `valuation` section), or the one
 * computed less than the cache time ago under the same configuration.
 */
export function valuationPrice(db: Database, symbol: string, config: BusinessConfig): Promise<Valuation> {
  const cache = caches.get(db)
  if (!cache) return computeValuation(db, symbol, config)
  const key = JSON.stringify([config.referencePrice, config.valuation])
  const now = Date.now()
  const hit = cache.latest.get(symbol)
  if (hit && hit.key === key && hit.until > now) return hit.value
  const entry = { key, until: now + cache.ms, value: computeValuation(db, symbol, config) }
  cache.latest.set(symbol, entry)
  // A failed computation is not reused (its callers get the error).
  entry.value.catch(() => cache.latest.get(symbol) === entry && cache.latest.delete(symbol))
  return entry.value
}

/**
 * The valuation price computed now, not taken from the cache (the cache then holds it for the other callers): what the
 * live channel publishes right after trades (modules/home/live.ts).
 */
export function freshValuation(db: Database, symbol: string, config: BusinessConfig): Promise<Valuation> {
  const value = computeValuation(db, symbol, config)
  const cache = caches.get(db)
  if (cache)
    cache.latest.set(symbol, {
      key: JSON.stringify([config.referencePrice, config.valuation]),
      until: Date.now() + cache.ms,
      value,
    })
  value.catch(() => cache?.latest.get(symbol)?.value === value && cache.latest.delete(symbol))
  return value
}

/**
 * One query: the window's in-band fills summed per interval (an index range on trade_fills (symbol, created_at)); the
 * interval of a fill is its age × VALUATION_INTERVALS / window, by the database clock that also stamps the fills.
 */
async function computeValuation(db: Database, symbol: string, config: BusinessConfig): Promise<Valuation> {
  const reference = BigInt(config.referencePrice)
  const { windowSeconds, bandBps, minQuoteVolume } = config.valuation
  const { low, high } = valuationBand(reference, bandBps)
  const { rows } = await sql<{ price_amount: string; amount: string; quote: string }>`
    select sum(price * amount) as price_amount, sum(amount) as amount, sum(quote) as quote
    from trade_fills
    where symbol = ${symbol} and created_at > now() - ${windowSeconds}::float8 * interval '1 second'
      and price between ${low.toString()}::numeric and ${high.toString()}::numeric
    group by least(greatest(floor(date_part('epoch', now() - created_at) * ${VALUATION_INTERVALS}::float8
      / ${windowSeconds}::float8)::int, 0), ${VALUATION_INTERVALS - 1}::int)`.execute(db)
  const intervals = rows.map((row) => ({
    priceAmount: BigInt(row.price_amount),
    amount: BigInt(row.amount),
    quote: BigInt(row.quote),
  }))
  return valuationOf(reference, intervals, BigInt(minQuoteVolume))
}

/**
 * The {product} price of valuations (USDT base units per whole token): the valuation price of the trades (docs/trade.md
 * "Valuation price"), or the operator's reference price while they are too thin. The staking minimum, a new stake's
 * value and power and the home price use it; only the quick trade shows its last trade.
 */
export async function valuation(db: Database, symbol: string): Promise<Valuation & { config: BusinessConfig }> {
  const config = await getBusinessConfig(db)
  return { ...(await valuationPrice(db, symbol, config)), config }
}
