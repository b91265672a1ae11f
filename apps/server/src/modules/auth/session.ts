import { Code } from '@solpledge/contract'
import type { FastifyRequest } from 'fastify'
import type { Database } from '../../db/index.ts'
import { AppError } from '../../lib/app-error.ts'
import { hashToken, newToken } from './crypto.ts'

export interface SessionUser {
  userId: string
  address: string
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
  const session = await db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'address'])
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst()
  if (!session || session.address !== address) throw new AppError(Code.SESSION_INVALID, 'error.sessionInvalid')
  return { userId: session.user_id, address: session.address, sessionId: session.id }
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
