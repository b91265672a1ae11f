import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import type { Database } from '../db/index.ts'
import { invalid, refuse } from './app-error.ts'

/**
 * Idempotency-Key for money calls (IETF httpapi draft; docs/money.md "Idempotent money calls"). The row in
 * `idempotency_keys` is the truth, so this works across server instances on one database.
 */

/** A valid key: 1–255 visible ASCII characters. */
const KEY = /^[\x21-\x7e]{1,255}$/
/**
 * A `running` claim older than this belongs to an attempt that died (its process crashed or was killed): another
 * request may take it over. Longer than any money handler runs; repeats wait up to this long for the first answer.
 */
export const TAKEOVER_MS = 60_000
/** Keys are kept at least 24 h; rows older than this are purged. */
export const RETAIN_HOURS = 48

/** The header's value when it is a valid key; refuses anything else (code -1). */
export function parseKey(value: string | string[] | undefined): string {
  if (typeof value !== 'string' || !KEY.test(value)) throw invalid('error.idempotencyKeyInvalid')
  return value
}

/** JSON with object keys sorted at every level: two bodies that mean the same hash the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

/** What identifies a request under one key: the contract path, its path parameters and its body. */
export const requestHash = (path: string, params: unknown, body: unknown) =>
  createHash('sha256')
    .update(`${path}\n${canonical(params ?? {})}\n${canonical(body ?? null)}`)
    .digest('hex')

export type Claim = { run: true } | { run: false; status: number; response: string }

/**
 * Claims `key` for this request. `run`: this request owns the key and runs the handler (then `finish` or `release`).
 * Otherwise the first request's answer, to be replayed: waits for it while that request is still running. A key of
 * another request is refused, and so is a key whose first request neither finishes nor dies within TAKEOVER_MS.
 */
export async function claim(db: Database, caller: string, key: string, hash: string): Promise<Claim> {
  const deadline = Date.now() + TAKEOVER_MS
  for (let wait = 10; ; wait = Math.min(wait * 2, 500)) {
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({ caller, key, request_hash: hash, state: 'running' })
      .onConflict((oc) => oc.columns(['caller', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst()
    if (claimed) return { run: true }
    const row = await db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'state', 'status', 'response'])
      .select(sql<boolean>`created_at < now() - make_interval(secs => ${TAKEOVER_MS / 1000})`.as('stale'))
      .where('caller', '=', caller)
      .where('key', '=', key)
      .executeTakeFirst()
    // Released meanwhile (the first attempt failed): claim it again.
    if (!row) continue
    if (row.request_hash !== hash) throw invalid('error.idempotencyKeyReused')
    if (row.state === 'done') return { run: false, status: row.status as number, response: row.response as string }
    // A dead attempt: whatever it did was one database transaction per handler, rolled back unless it committed
    // (docs/money.md). Of several requests taking over at once, the conditional update lets one through.
    if (row.stale) {
      const taken = await db
        .updateTable('idempotency_keys')
        .set({ created_at: sql`now()` })
        .where('caller', '=', caller)
        .where('key', '=', key)
        .where('state', '=', 'running')
        .where(sql<boolean>`created_at < now() - make_interval(secs => ${TAKEOVER_MS / 1000})`)
        .returning('key')
        .executeTakeFirst()
      if (taken) return { run: true }
    }
    if (Date.now() > deadline) throw refuse('error.idempotencyInProgress')
    await sleep(wait)
  }
}

/** Stores the answer of a claimed key: every later request with it gets these bytes. */
export async function finish(db: Database, caller: string, key: string, status: number, response: string) {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', status, response })
    .where('caller', '=', caller)
    .where('key', '=', key)
    .where('state', '=', 'running')
    .execute()
}

/** Gives up a claimed key after an unexpected fault: a retry runs the call again. */
export async function release(db: Database, caller: string, key: string) {
  await db
    .deleteFrom('idempotency_keys')
    .where('caller', '=', caller)
    .where('key', '=', key)
    .where('state', '=', 'running')
    .execute()
}

/** Forgets keys older than RETAIN_HOURS (an index range on created_at). */
export async function purgeIdempotencyKeys(db: Database) {
  await db
    .deleteFrom('idempotency_keys')
    .where(sql<boolean>`created_at < now() - make_interval(hours => ${RETAIN_HOURS})`)
    .execute()
}
