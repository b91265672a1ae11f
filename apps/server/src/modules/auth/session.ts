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

/** One read: a live session by token hash (parameter 1) and expiry after now (parameter 2), with its user. */
const sessionQuery = (db: Database) =>
  userQuery(db)
    .innerJoin('sessions as s', 's.user_id', 'u.id')
    .select(['s.id as session_id', 's.address as session_address', 's.expires_at as session_expires_at'])
    .where('s.token_hash', '=', '')
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date(0))
type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>['executeTakeFirstOrThrow']>>

// The check runs on every authenticated call: its SQL is built once per database, only the parameters change.
const compiled = new WeakMap<Database, CompiledQuery>()
function compiledSessionQuery(db: Database): CompiledQuery {
  let query = compiled.get(db)
  if (!query) {
    query = sessionQuery(db).compile()
    if (query.parameters.length !== 2) throw new Error('the session query must take exactly two parameters')
    compiled.set(db, query)
  }
  return query
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name]
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : undefined
}

/**
 * Sessions checked in the last `ttlMs`, by token hash: every authenticated call checks its session, and most calls
 * come from a few sessions in quick succession. An entry is trusted until `ttlMs` after the check (never past the
 * session's expiry); `forgetUser` drops a user's entries at once when this server revokes their sessions. Bounded:
 * past `maxEntries` the oldest check is dropped.
 */
export class SessionCache {
  private readonly entries = new Map<string, { user: SessionUser; address: string; until: number }>()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  get(tokenHash: string, now: number): { user: SessionUser; address: string } | undefined {
    const entry = this.entries.get(tokenHash)
    if (!entry) return undefined
    if (entry.until > now) return entry
    this.entries.delete(tokenHash)
    return undefined
  }

  set(tokenHash: string, user: SessionUser, address: string, expiresAt: Date, now: number) {
    if (this.ttlMs === 0) return
    this.entries.delete(tokenHash)
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
    this.entries.set(tokenHash, { user, address, until: Math.min(now + this.ttlMs, expiresAt.getTime()) })
  }

  /** Forgets every cached session of the user (call it when revoking their sessions). */
  forgetUser(userId: string) {
    for (const [key, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(key)
  }
}

/** The user of a valid session whose address is the request's User-Address; otherwise -403. */
export function requireSession(db: Database, request: FastifyRequest, cache: SessionCache): Promise<SessionUser> {
  return sessionUser(db, header(request, 'user-token'), header(request, 'user-address'), cache)
}

/** The user of the session `token` when it is live and bound to `address`; otherwise -403. */
export async function sessionUser(
  db: Database,
  token: string | undefined,
  address: string | undefined,
  cache: SessionCache,
): Promise<SessionUser> {
  if (!token || !address) throw new AppError(Code.SESSION_INVALID, 'error.sessionInvalid')
  const tokenHash = hashToken(token)
  const now = Date.now()
  const cached = cache.get(tokenHash, now)
  if (cached) {
    if (cached.address !== address) throw new AppError(Code.SESSION_INVALID, 'error.sessionInvalid')
    return cached.user
  }
  const { rows } = await db.executeQuery<SessionRow>({
    ...compiledSessionQuery(db),
    parameters: [tokenHash, new Date(now)],
  })
  const row = rows[0]
  if (!row || row.session_address !== address) throw new AppError(Code.SESSION_INVALID, 'error.sessionInvalid')
  const user = { ...toUser(row), sessionId: row.session_id }
  cache.set(tokenHash, user, row.session_address, new Date(row.session_expires_at), now)
  return user
}

/** Opens a session: the token is returned once and only its hash is stored. */
export async function createSession(db: Database, userId: string, address: string, ttlHours: number) {
  const token = newToken()
  const expiresAt = new Date(Date.now() + ttlHours * 3_600_000)
  await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(token), user_id: userId, address, expires_at: expiresAt })
    .execute()
  return { token, expiresAt }
}
