import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql, type Transaction } from 'kysely'
import type { Database } from '../db/index.ts'
import type { DB } from '../db/schema.ts'
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

/**
 * Fault injection for crash tests and simulators: called after an idempotent call's transaction (its effects and, with
 * a key, its answer) committed and before the answer is sent — the moment a crash leaves the work done and the client
 * without its answer. Unset, it costs one property read per money call; nothing in production sets it. The server
 * sets it to kill itself under CRASH_AT=committed (local chain only, server.ts; apps/server/test/idempotency-crash.test.ts).
 */
export const faults: { afterCommit?: (call: { path: string; key: string | undefined }) => void } = {}

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

/** A key this request owns: its row is matched by `token` (the claim's time), so a claim taken over is no longer it. */
export interface Claimed {
  caller: string
  key: string
  token: string
}

export type Claim = ({ run: true } & Claimed) | { run: false; status: number; response: string }

/** The claim's time as PostgreSQL prints it: exact to the microsecond, read back unchanged by ::timestamptz. */
const token = sql<string>`created_at::text`.as('token')

/** The row of a claim that is still this request's. */
const ownRow = (claimed: Claimed) =>
  sql<boolean>`caller = ${claimed.caller} and key = ${claimed.key} and state = 'running' and created_at = ${claimed.token}::timestamptz`

/**
 * Claims `key` for this request. `run`: this request owns the key and runs the handler (then its answer is stored with
 * `storeAnswer` inside the transaction of its effects, or with `finish`, or the key is given up with `release`).
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
      .returning(token)
      .executeTakeFirst()
    if (claimed) return { run: true, caller, key, token: claimed.token }
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
    // A dead attempt: its effects and its answer were one transaction, rolled back when its connection dropped
    // (docs/money.md). Of several requests taking over at once, the conditional update lets one through; the new
    // claim time makes the old attempt's answer, should it still come, roll its own effects back (storeAnswer).
    if (row.stale) {
      const taken = await db
        .updateTable('idempotency_keys')
        .set({ created_at: sql`now()` })
        .where('caller', '=', caller)
        .where('key', '=', key)
        .where('state', '=', 'running')
        .where(sql<boolean>`created_at < now() - make_interval(secs => ${TAKEOVER_MS / 1000})`)
        .returning(token)
        .executeTakeFirst()
      if (taken) return { run: true, caller, key, token: taken.token }
    }
    if (Date.now() > deadline) throw refuse('error.idempotencyInProgress')
    await sleep(wait)
  }
}

/**
 * Stores the answer of a claimed key in `trx`, the transaction that makes the call's effects: both commit together or
 * neither does. A claim that is no longer this request's (taken over after TAKEOVER_MS) refuses, and the effects roll
 * back: the request that took it over does the work.
 */
export async function storeAnswer(trx: Transaction<DB>, claimed: Claimed, status: number, response: string) {
  const stored = await trx
    .updateTable('idempotency_keys')
    .set({ state: 'done', status, response })
    .where(ownRow(claimed))
    .executeTakeFirst()
  if (stored.numUpdatedRows !== 1n) throw refuse('error.idempotencyInProgress')
}

/** Stores the answer of a claimed key whose call made no effect (a refusal): every later request gets these bytes. */
export async function finish(db: Database, claimed: Claimed, status: number, response: string) {
  await db.updateTable('idempotency_keys').set({ state: 'done', status, response }).where(ownRow(claimed)).execute()
}

/** Gives up a claimed key after an unexpected fault: a retry runs the call again (unless its answer was stored). */
export async function release(db: Database, claimed: Claimed) {
  await db.deleteFrom('idempotency_keys').where(ownRow(claimed)).execute()
}

/** Forgets keys older than RETAIN_HOURS (an index range on created_at). */
export async function purgeIdempotencyKeys(db: Database) {
  await db
    .deleteFrom('idempotency_keys')
    .where(sql<boolean>`created_at < now() - make_interval(hours => ${RETAIN_HOURS})`)
    .execute()
}
