// Rate limits (docs/operations.md, "Rate limits"): @fastify/rate-limit counts calls per client address (request.ip,
// as TRUST_PROXY makes it; an IPv6 client by its /64) and route, in fixed one-minute windows, and answers the call past
// the limit HTTP 429 with Retry-After and the -102 envelope. Where it counts is this file's store:
// - shared limits (the login calls) in PostgreSQL, so that N instances allow the limit once, not N times: one upsert
//   per call, and none once a client is over the limit (this instance remembers it until the window ends);
// - the others (public reads) in this process: they protect each instance's own capacity, which a client's calls to
//   another instance do not use.
import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import { Code } from '@solpledge/contract'
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { Database } from '../db/index.ts'
import { AppError } from './app-error.ts'

/** A route's limit: calls per client address per minute, and whether all instances count them together. */
export interface RateLimit {
  perMinute: number
  shared: boolean
}

export const RATE_LIMIT_WINDOW_MS = 60_000

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's rate limit is counted over all instances (in the database), not by this one alone. */
    rateLimitShared?: boolean
  }
}

type Counted = { current: number; ttl: number }
type Callback = (error: Error | null, result?: Counted) => void

/**
 * A store of @fastify/rate-limit: the plugin makes one (`new Store(settings)`) and asks it for a child per limited
 * route, with the route's merged settings and its route options under `routeInfo`. Each route gets its own bucket,
 * shared or local as the route's `rateLimitShared` says; a shared one's keys start with the route's path (lower case,
 * as paths match).
 */
abstract class Bucket implements FastifyRateLimitStore {
  constructor(readonly db: Database) {}

  abstract incr(key: string, callback: Callback, timeWindow: number, max: number): void

  child(params: object): Bucket {
    const route = (params as { routeInfo?: { url?: string; config?: { rateLimitShared?: boolean } } }).routeInfo
    return route?.config?.rateLimitShared
      ? new SharedBucket(this.db, `${(route.url ?? '').toLowerCase()} `)
      : new LocalBucket(this.db)
  }
}

/** At most this many counted addresses per route and instance; expired ones go first, then the oldest. */
const MAX_ENTRIES = 10_000

/** Forgets expired entries of `map` once it is too large, then the oldest if it still is. */
function prune<V extends { resetAt: number }>(map: Map<string, V>, now: number) {
  if (map.size < MAX_ENTRIES) return
  for (const [key, value] of map) if (value.resetAt <= now) map.delete(key)
  for (const key of map.keys()) {
    if (map.size < MAX_ENTRIES * 0.9) break
    map.delete(key)
  }
}

/** Counts in this process. */
class LocalBucket extends Bucket {
  private readonly windows = new Map<string, { hits: number; resetAt: number }>()

  incr(key: string, callback: Callback, timeWindow: number) {
    const now = Date.now()
    let window = this.windows.get(key)
    if (!window || window.resetAt <= now) {
      prune(this.windows, now)
      window = { hits: 0, resetAt: now + timeWindow }
      this.windows.set(key, window)
    }
    window.hits++
    callback(null, { current: window.hits, ttl: window.resetAt - now })
  }
}

/** Counts in the database, by its clock; a client over the limit is refused from memory until its window ends. */
class SharedBucket extends Bucket {
  private readonly refused = new Map<string, { resetAt: number }>()

  constructor(
    db: Database,
    private readonly prefix: string,
  ) {
    super(db)
  }

  incr(key: string, callback: Callback, timeWindow: number, max: number) {
    const id = this.prefix + key
    const now = Date.now()
    const refused = this.refused.get(id)
    if (refused && refused.resetAt > now) return callback(null, { current: max + 1, ttl: refused.resetAt - now })
    countHit(this.db, id, timeWindow).then((counted) => {
      if (counted.current > max) {
        prune(this.refused, now)
        this.refused.set(id, { resetAt: now + counted.ttl })
      }
      callback(null, counted)
    }, callback)
  }
}

/** One call counted in the database: a new window when there is none or it has ended. */
async function countHit(db: Database, key: string, windowMs: number): Promise<Counted> {
  const { rows } = await sql<{ hits: number; ttl: number }>`
    insert into rate_limit_hits as r (key, hits, reset_at)
    values (${key}, 1, now() + ${windowMs}::int * interval '1 millisecond')
    on conflict (key) do update set
      hits = case when r.reset_at <= now() then 1 else r.hits + 1 end,
      reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
    returning hits, ceil(extract(epoch from reset_at - now()) * 1000)::int as ttl`.execute(db)
  const row = rows[0] as { hits: number; ttl: number }
  return { current: row.hits, ttl: Math.max(1, row.ttl) }
}

/** Forgets the shared counters whose window has ended (the nonce-purge job). */
export async function purgeRateLimits(db: Database) {
  await db.deleteFrom('rate_limit_hits').where('reset_at', '<', sql<Date>`now()`).execute()
}

/** The `store` of @fastify/rate-limit on `db` (its routes' buckets count; the store itself counts nothing). */
export function rateLimitStore(db: Database) {
  return class RateLimitStore extends Bucket {
    constructor() {
      super(db)
    }

    incr(_key: string, callback: Callback) {
      callback(new Error('rate limits are counted by each route’s own bucket'))
    }
  }
}

/** The answer past the limit: HTTP 429 with the -102 envelope (the plugin has set Retry-After and X-RateLimit-*). */
export const rateLimitError = (_request: FastifyRequest) =>
  new AppError(Code.RATE_LIMITED, 'error.rateLimited', {}, 429)
