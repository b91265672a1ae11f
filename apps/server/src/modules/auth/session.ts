import { Code, type User } from '@solpledge/contract'
import type { FastifyRequest } from 'fastify'
import type { Database } from '../../db/index.ts'
import { AppError } from '../../lib/app-error.ts'
import { toUser, userQuery } from '../user/queries.ts'
import { hashToken, newToken } from './crypto.ts'

/** The caller of an authenticated route: its user (read in the same query as the session) and session id. */
export interface SessionUser extends User {
  sessionId: string
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
  // One read: the session and its user together.
  const row = await userQuery(db)
    .innerJoin('sessions as s', 's.user_id', 'u.id')
    .select(['s.id as session_id', 's.address as session_address'])
    .where('s.token_hash', '=', hashToken(token))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date())
    .executeTakeFirst()
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
