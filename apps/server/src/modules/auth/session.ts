import { Code, type User } from '@solpledge/contract'
import type { FastifyRequest } from 'fastify'
import type { CompiledQuery } from 'kysely'
import type { Database } from '../../db/index.ts'
import { AppError } from '../../lib/app-error.ts'
import { toUser, userQuery } from '../user/queries.ts'
import { hashToken, newToken } from './crypto.ts'

/** The caller of an authenticated route: its user (read in the same query as the session) and session id. */
export interface SessionUser extends User {
  sessionId: string
}

/** One read: a live session by token hash (parameter 1) and expiry after now (parameter 2), with its user. */
const sessionQuery = (db: Database) =>
  userQuery(db)
    .innerJoin('sessions as s', 's.user_id', 'u.id')
    .select(['s.id as session_id', 's.address as session_address'])
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

/** The user of a valid session whose address is the request's User-Address; otherwise -403. */
export async function requireSession(db: Database, request: FastifyRequest): Promise<SessionUser> {
  const token = header(request, 'user-token')
  const address = header(request, 'user-address')
  if (!token || !address) throw new AppError(Code.SESSION_INVALID, 'error.sessionInvalid')
  const { rows } = await db.executeQuery<SessionRow>({
    ...compiledSessionQuery(db),
    parameters: [hashToken(token), new Date()],
  })
  const row = rows[0]
  if (!row || row.session_address !== address) throw new AppError(Code.SESSION_INVALID, 'error.sessionInvalid')
  return { ...toUser(row), sessionId: row.session_id }
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
