// The {product} prices (docs/trade.md "Valuation price"): the quick trade's last price, and the valuation price that
// everything else uses, which one trade or a burst of wash trades cannot push around.
import type { api, BusinessConfig, DataOf } from '@solpledge/contract'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { addDays, utcDay } from '../../lib/day.ts'
import { getBusinessConfig } from '../config/index.ts'

/** The price of the market's last trade (USDT base units per whole token), or null before the first trade. */
export async function lastTradePrice(db: Database, symbol: string): Promise<bigint | null> {
  const row = await db.selectFrom('trade_markets').select('last_price').where('symbol', '=', symbol).executeTakeFirst()
  return row?.last_price == null ? null : BigInt(row.last_price)
}

/** The window is cut into this many equal intervals, each weighing the same (one hour each for a 24 h window). */
export const VALUATION_INTERVALS = 24

/**
 * An account's trading counts at most minQuoteVolume / VALUATION_ACCOUNTS (40 USDT of the default 1000): the trades of
 * fewer accounts than this can never make the window's counted volume, however much they trade with each other.
 */
export const VALUATION_ACCOUNTS = 25

/** The in-band fills of one interval between one maker and one taker account: Σ price × quote and Σ quote. */
export interface PairFills {
  /** 0 … VALUATION_INTERVALS − 1, 0 the newest. */
  interval: number
  maker: string
  taker: string
  /** Σ price × quote (USDT base units per token × USDT base units). */
  priceQuote: bigint
  /** Σ quote, USDT base units. */
  quote: bigint
}

export interface Valuation {
  /** USDT base units per whole token. */
  price: bigint
  /** 'trade' when computed from fills, 'reference' when the window's counted volume was below the minimum. */
  source: 'trade' | 'reference'
}

/** The prices a fill may have to count: reference × (1 ∓ band), rounded inwards (both bounds included). */
export function valuationBand(reference: bigint, bandBps: number) {
  return {
    low: (reference * BigInt(10_000 - bandBps) + 9_999n) / 10_000n,
    high: (reference * BigInt(10_000 + bandBps)) / 10_000n,
  }
}

/** Fixed-point scale of an account's share (how much of its trading counts). */
const SHARE = 10n ** 12n

/**
 * The rule (docs/trade.md "Valuation price"), on the window's in-band fills grouped by interval and account pair:
 * 1. Each fill is half its maker's and half its taker's trading. An account counts up to `cap` = minQuoteVolume /
 *    VALUATION_ACCOUNTS of it: one that traded more has each of its halves counted in proportion (its share).
 * 2. Below `minQuoteVolume` USDT counted in the window (or without fills), the reference price.
 * 3. Otherwise each interval's price is its fills' prices weighted by their counted USDT, completed with the reference
 *    price up to minQuoteVolume / VALUATION_INTERVALS of counted USDT (an interval without fills is the reference
 *    price), rounded down; the price is the mean of the intervals, rounded down. Every term lies within the band, so
 *    the result does too.
 */
export function valuationOf(reference: bigint, fills: PairFills[], minQuoteVolume: bigint): Valuation {
  if (fills.length === 0) return { price: reference, source: 'reference' }
  // Each account's trading, doubled (Σ quote instead of Σ quote / 2), and its share of it that counts.
  const traded = new Map<string, bigint>()
  for (const f of fills) for (const u of [f.maker, f.taker]) traded.set(u, (traded.get(u) ?? 0n) + f.quote)
  const cap2 = 2n * (minQuoteVolume / BigInt(VALUATION_ACCOUNTS) || 1n)
  const share = (u: string) => {
    const twice = traded.get(u) as bigint
    return twice <= cap2 ? SHARE : (cap2 * SHARE) / twice
  }
  // Per interval, in units of 2 × SHARE: the counted USDT and Σ price × counted USDT.
  const counted = Array.from({ length: VALUATION_INTERVALS }, () => ({ quote: 0n, priceQuote: 0n }))
  for (const f of fills) {
    const weight = share(f.maker) + share(f.taker)
    const interval = counted[f.interval] as { quote: bigint; priceQuote: bigint }
    interval.quote += f.quote * weight
    interval.priceQuote += f.priceQuote * weight
  }
  const minimum = minQuoteVolume * 2n * SHARE
  if (counted.reduce((sum, i) => sum + i.quote, 0n) < minimum) return { price: reference, source: 'reference' }
  // Each interval weighs at least minimum / VALUATION_INTERVALS (all multiplied by VALUATION_INTERVALS here).
  const n = BigInt(VALUATION_INTERVALS)
  const sum = counted.reduce((total, { quote, priceQuote }) => {
    const missing = minimum > n * quote ? minimum - n * quote : 0n
    const weight = n * quote + missing
    return total + (weight === 0n ? reference : (n * priceQuote + reference * missing) / weight)
  }, 0n)
  return { price: sum / n, source: 'trade' }
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
 * One query: the window's in-band fills summed per interval and account pair (an index range on trade_fills (symbol,
 * created_at)); the interval of a fill is its age × VALUATION_INTERVALS / window, by the database clock that also
 * stamps the fills.
 */
async function computeValuation(db: Database, symbol: string, config: BusinessConfig): Promise<Valuation> {
  const reference = BigInt(config.referencePrice)
  const { windowSeconds, bandBps, minQuoteVolume } = config.valuation
  const { low, high } = valuationBand(reference, bandBps)
  const { rows } = await sql<{ interval: number; maker: string; taker: string; price_quote: string; quote: string }>`
    select least(greatest(floor(date_part('epoch', now() - created_at) * ${VALUATION_INTERVALS}::float8
        / ${windowSeconds}::float8)::int, 0), ${VALUATION_INTERVALS - 1}::int) as interval,
      maker_user_id as maker, taker_user_id as taker, sum(price * quote) as price_quote,
      sum(quote) as quote
    from trade_fills
    where symbol = ${symbol} and created_at > now() - ${windowSeconds}::float8 * interval '1 second'
      and price between ${low.toString()}::numeric and ${high.toString()}::numeric
    group by 1, 2, 3`.execute(db)
  const fills = rows.map((row) => ({
    interval: row.interval,
    maker: row.maker,
    taker: row.taker,
    priceQuote: BigInt(row.price_quote),
    quote: BigInt(row.quote),
  }))
  return valuationOf(reference, fills, BigInt(minQuoteVolume))
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

/**
 * Records the prices of `day` (today, UTC): the valuation price and the quick trade's last price, one row per market
 * and day; a later call of the same day overwrites them (the row holds the day's latest), and writes nothing when
 * they did not change. The settlement job calls it on each pass (jobs/settlement.ts).
 */
export async function recordPriceDay(db: Database, symbol: string, day: string = utcDay()): Promise<void> {
  const [{ price, source }, last] = await Promise.all([valuation(db, symbol), lastTradePrice(db, symbol)])
  const row = { valuation: price.toString(), source, last_price: last?.toString() ?? null }
  await db
    .insertInto('price_days')
    .values({ symbol, day, ...row })
    .onConflict((oc) =>
      oc
        .columns(['symbol', 'day'])
        .doUpdateSet({ ...row, recorded_at: sql`now()` })
        .where(({ or, eb }) =>
          or([
            eb('price_days.valuation', '<>', eb.ref('excluded.valuation')),
            eb('price_days.source', '<>', eb.ref('excluded.source')),
            eb('price_days.last_price', 'is distinct from', eb.ref('excluded.last_price')),
          ]),
        ),
    )
    .execute()
}

/** The prices recorded by day over the last `days` days up to `today` (docs/product.md#history). */
export async function priceHistory(
  db: Database,
  symbol: string,
  days: number,
  today: string = utcDay(),
): Promise<DataOf<typeof api.priceHistory>> {
  const from = addDays(today, 1 - days)
  const rows = await db
    .selectFrom('price_days')
    .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'valuation', 'source', 'last_price'])
    .where('symbol', '=', symbol)
    .where('day', '>=', from)
    .where('day', '<=', today)
    .orderBy('day')
    .execute()
  return {
    from,
    to: today,
    symbol,
    trade: rows.flatMap((r) => (r.last_price === null ? [] : [{ day: r.day, price: r.last_price }])),
    valuation: rows.map((r) => ({ day: r.day, price: r.valuation, source: r.source })),
  }
}
