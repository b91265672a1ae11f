import { Code, type User } from '@solpledge/contract'
import type { FastifyRequest } from 'fastify'
import type { CompiledQuery } from 'kysely'
import type { Database } from '../../db/index.ts'
import { AppError } from '../../lib/app-error.ts'
import { toUser, userQuery } from '../user/index.ts'
import { hashToken, newToken } from './crypto.ts'

/** The caller of an authenticated route: its user (read in the same query as the session) and session id. */
export interface SessionUser extends User {
  sessionId: string
}

/**
 * One read: a live session by token hash (parameter 1) — not revoked, before its absolute expiry (parameter 2: now)
 * and seen since the idle cutoff (parameter 3: now − the idle time) — with its user.
 */
const sessionQuery = (db: Database) =>
  userQuery(db)
    .innerJoin('sessions as s', 's.user_id', 'u.id')
    .select([
      's.id as session_id',
      's.address as session_address',
      's.expires_at as session_expires_at',
      's.last_seen_at as session_last_seen_at',
    ])
    .where('s.token_hash', '=', '')
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date(0))
    .where('s.last_seen_at', '>', new Date(0))
type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>['executeTakeFirstOrThrow']>>

// The check runs on every authenticated call: its SQL is built once per database, only the parameters change.
const compiled = new WeakMap<Database, CompiledQuery>()
function compiledSessionQuery(db: Database): CompiledQuery {
  let query = compiled.get(db)
  if (!query) {
    query = sessionQuery(db).compile()
    if (query.parameters.length !== 3) throw new Error('the session query must take exactly three parameters')
    compiled.set(db, query)
  }
  return query
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name]
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : undefined
}

/**
 * Sessions checked in the last `ttlMs`, by token: every authenticated call checks its session, and most calls come
 * from a few sessions in quick succession. Keyed by the token itself, so that a call the cache answers hashes nothing
 * (the token is in this process's memory for the request anyway; only the database keeps hashes). An entry is trusted until `ttlMs` after the check (never past the
 * session's expiry or idle end); `forgetUser` and `forgetSession` drop entries at once when this server revokes
 * sessions. Bounded: past `maxEntries` the oldest check is dropped.
 */
export class SessionCache {
  private readonly entries = new Map<string, { user: SessionUser; address: string; until: number }>()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  get(token: string, now: number): { user: SessionUser; address: string } | undefined {
    const entry = this.entries.get(token)
    if (!entry) return undefined
    if (entry.until > now) return entry
    this.entries.delete(token)
    return undefined
  }

  set(token: string, user: SessionUser, address: string, expiresAt: Date, now: number) {
    if (this.ttlMs === 0) return
    this.entries.delete(token)
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
    this.entries.set(token, { user, address, until: Math.min(now + this.ttlMs, expiresAt.getTime()) })
  }

  /** Forgets every cached session of the user (call it when revoking their sessions). */
  forgetUser(userId: string) {
    for (const [key, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(key)
  }

  /** Forgets one cached session (call it when revoking it). */
  forgetSession(sessionId: string) {
    for (const [key, entry] of this.entries) if (entry.user.sessionId === sessionId) this.entries.delete(key)
  }
}

/** How sessions end (docs/architecture.md "Login and sessions"). */
export interface SessionPolicy {
  /** A session ends after this long without a call. */
  idleMs: number
  /** The clock sessions are measured by, in ms since the epoch (tests move it). */
  now: () => number
}

/** The most a session's last call is behind in the database: last_seen_at is written at most once per this time. */
export const SESSION_TOUCH_MS = 5 * 60_000
/** The touch interval of an idle time: five minutes, or a quarter of a shorter idle time. */
export const touchInterval = (idleMs: number) => Math.min(SESSION_TOUCH_MS, Math.floor(idleMs / 4))

/**
 * The user of a valid session whose address is the request's User-Address; otherwise -403. Valid: not revoked, before
 * its absolute expiry, and called within the idle time. The call counts as activity: `last_seen_at` moves to now when
 * it is more than the touch interval old — one write per session per interval at most, not one per call (a session
 * checked from the cache is not touched, it was seen at most SESSION_CACHE_MS ago).
 */
export function requireSession(
  db: Database,
  request: FastifyRequest,
  cache: SessionCache,
  policy: SessionPolicy,
): Promise<SessionUser> {
  return sessionUser(db, header(request, 'user-token'), header(request, 'user-address'), cache, policy)
}

/**
 * requireSession's answer when the cache has it, without a promise or a database scope: the user, a -403 thrown for a
 * cached token sent with another address, or undefined (not cached, or no token: requireSession decides).
 */
export function cachedSession(request: FastifyRequest, cache: SessionCache, policy: SessionPolicy) {
  const token = header(request, 'user-token')
  const address = header(request, 'user-address')
  if (!token || !address) return undefined
  return fromCache(cache, token, address, policy.now())
}

/** The cached session's user; a -403 for a cached token sent with another address; undefined when not cached. */
function fromCache(cache: SessionCache, token: string, address: string, now: number) {
  const cached = cache.get(token, now)
  if (cached && cached.address !== address) throw new AppError(Code.SESSION_INVALID, 'error.sessionInvalid')
  return cached?.user
}

/** The user of the session `token` when it is valid (as requireSession says) and bound to `address`; otherwise -403. */
export async function sessionUser(
  db: Database,
  token: string | undefined,
  address: string | undefined,
  cache: SessionCache,
  policy: SessionPolicy,
): Promise<SessionUser> {
  if (!token || !address) throw new AppError(Code.SESSION_INVALID, 'error.sessionInvalid')
  const now = policy.now()
  const cached = fromCache(cache, token, address, now)
  if (cached) return cached
  const { rows } = await db.executeQuery<SessionRow>({
    ...compiledSessionQuery(db),
    parameters: [hashToken(token), new Date(now), new Date(now - policy.idleMs)],
  })
  const row = rows[0]
  if (!row || row.session_address !== address) throw new AppError(Code.SESSION_INVALID, 'error.sessionInvalid')
  let lastSeen = new Date(row.session_last_seen_at).getTime()
  const touchBefore = now - touchInterval(policy.idleMs)
  if (lastSeen < touchBefore) {
    // Conditional: of several instances (or calls) touching at once, one writes.
    await db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(now) })
      .where('id', '=', row.session_id)
      .where('last_seen_at', '<', new Date(touchBefore))
      .execute()
    lastSeen = now
  }
  const user = { ...toUser(row), sessionId: row.session_id }
  const ends = Math.min(new Date(row.session_expires_at).getTime(), lastSeen + policy.idleMs)
  cache.set(token, user, row.session_address, new Date(ends), now)
  return user
}

/** Opens a session: the token is returned once and only its hash is stored. */
export async function createSession(db: Database, userId: string, address: string, ttlHours: number, now = Date.now()) {
  const token = newToken()
  const expiresAt = new Date(now + ttlHours * 3_600_000)
  const row = await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      address,
      created_at: new Date(now),
      last_seen_at: new Date(now),
      expires_at: expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, token, expiresAt }
}

/** Ends one session: its token is refused from now on. */
export async function revokeSession(db: Database, sessionId: string, now: number) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date(now) })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute()
}

/** Ends every live session of the user but `keep` ("sign out everywhere" at a new sign-in). */
export async function revokeOtherSessions(db: Database, userId: string, keep: string, now: number) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date(now) })
    .where('user_id', '=', userId)
    .where('id', '<>', keep)
    .where('revoked_at', 'is', null)
    .execute()
}
