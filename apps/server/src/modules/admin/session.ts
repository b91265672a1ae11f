// Operator console access (docs/admin.md): an allow-list of wallet addresses with roles, the same signed-nonce sign-in
// as the app (modules/auth) with its own statement, and admin sessions whose token is stored hashed. The role is read
// from the allow-list on every call, so a demotion or removal applies to the next request.
import { type AdminLoginData, type AdminRole, type AdminSession, Code, roleAtLeast } from '@solpledge/contract'
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { AppError, refuse } from '../../lib/app-error.ts'
import { hashToken, issueNonce, type LoginSettings, newToken, verifySignIn } from '../auth/index.ts'
import { audit } from './audit.ts'

/** The statement of an operator console sign-in message: a signature for the app never opens the console. */
export const ADMIN_SIGN_IN_STATEMENT = 'Sign in to the solpledge operator console'
/** Advisory lock key of the allow-list's changes ('adm' in ASCII): the bootstrap and every four-eyes decision. */
export const ADMINS_LOCK = 0x61646d

/** The caller of an admin route. */
export interface AdminCaller {
  sessionId: string
  address: string
  role: AdminRole
  ip: string
}

export interface AdminLoginSettings extends LoginSettings {
  adminSessionTtlHours: number
  /** On the local chain, the first wallet to sign in while the allow-list is empty becomes its admin. */
  localBootstrap: boolean
}

const sessionInvalid = () => new AppError(Code.SESSION_INVALID, 'admin.sessionInvalid')

/** The admin of a live session named by the Admin-Token header, with at least `required`; otherwise -403. */
export function requireAdmin(db: Database, request: FastifyRequest, required: AdminRole): Promise<AdminCaller> {
  const token = request.headers['admin-token']
  return adminOf(db, typeof token === 'string' ? token : undefined, required, request.ip)
}

/** The admin of the live admin session `token`, with at least `required`; otherwise -403. */
export async function adminOf(
  db: Database,
  token: string | undefined,
  required: AdminRole,
  ip: string,
): Promise<AdminCaller> {
  if (token === undefined || token.length === 0 || token.length > 256) throw sessionInvalid()
  const row = await db
    .selectFrom('admin_sessions as s')
    .innerJoin('admins as a', 'a.address', 's.address')
    .select(['s.id', 'a.address', 'a.role'])
    .where('s.token_hash', '=', hashToken(token))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date())
    .where('a.removed_at', 'is', null)
    .executeTakeFirst()
  if (!row) throw sessionInvalid()
  if (!roleAtLeast(row.role, required))
    throw new AppError(Code.SESSION_INVALID, 'admin.roleRequired', { role: required })
  return { sessionId: row.id, address: row.address, role: row.role, ip }
}

const activeAdmin = (db: Database, address: string) =>
  db
    .selectFrom('admins')
    .select(['address', 'role'])
    .where('address', '=', address)
    .where('removed_at', 'is', null)
    .executeTakeFirst()

/** Whether the local chain's first sign-in may claim the console: the allow-list has never had anyone. */
export async function isEmptyAllowList(db: Database): Promise<boolean> {
  const any = await db.selectFrom('admins').select('address').limit(1).executeTakeFirst()
  return !any
}

/** Step 1: a sign-in message for an allow-listed address (or anyone while the local bootstrap is open). */
export async function adminNonce(db: Database, settings: AdminLoginSettings, address: string, host?: string) {
  const allowed = (await activeAdmin(db, address)) ?? (settings.localBootstrap && (await isEmptyAllowList(db)))
  if (!allowed) throw refuse('admin.notAllowed')
  return issueNonce(db, settings, address, host, ADMIN_SIGN_IN_STATEMENT)
}

/**
 * Step 2: the signed message opens an admin session; the allow-list decides the role. One transaction with the nonce's
 * spend, as the app's login (modules/auth/service.ts): a connection lost before its COMMIT leaves nothing behind and
 * the request runs again; an address refused still spends the nonce.
 */
export async function adminLogin(
  db: Database,
  settings: AdminLoginSettings,
  input: { address: string; sign: string; message: string },
  ip: string,
): Promise<AdminLoginData> {
  const outcome = await db.transaction().execute(async (trx) => {
    await verifySignIn(trx, settings, input, ADMIN_SIGN_IN_STATEMENT)
    let admin = await activeAdmin(trx, input.address)
    if (!admin && settings.localBootstrap) {
      await sql`select pg_advisory_xact_lock(${ADMINS_LOCK})`.execute(trx)
      if (await isEmptyAllowList(trx)) {
        admin = await trx
          .insertInto('admins')
          .values({ address: input.address, role: 'admin', source: 'local', added_by: 'local-bootstrap' })
          .returning(['address', 'role'])
          .executeTakeFirstOrThrow()
        await audit(
          trx,
          { address: admin.address, role: admin.role, ip },
          'admin.bootstrap',
          `admin:${admin.address}`,
          {
            after: { role: admin.role, source: 'local' },
          },
        )
      }
    }
    if (!admin) return { refusal: refuse('admin.notAllowed') }
    const token = newToken()
    const expiresAt = new Date(Date.now() + settings.adminSessionTtlHours * 3_600_000)
    await trx
      .insertInto('admin_sessions')
      .values({ token_hash: hashToken(token), address: admin.address, ip, expires_at: expiresAt })
      .execute()
    await audit(trx, { address: admin.address, role: admin.role, ip }, 'admin.login', `admin:${admin.address}`, {})
    return { address: admin.address, role: admin.role, expires_at: expiresAt.toISOString(), token }
  })
  if ('refusal' in outcome) throw outcome.refusal
  return outcome
}

export async function adminMe(db: Database, caller: AdminCaller): Promise<AdminSession> {
  const row = await db
    .selectFrom('admin_sessions')
    .select('expires_at')
    .where('id', '=', caller.sessionId)
    .executeTakeFirstOrThrow()
  return { address: caller.address, role: caller.role, expires_at: row.expires_at.toISOString() }
}

export async function adminLogout(db: Database, caller: AdminCaller): Promise<Record<string, never>> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('admin_sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', caller.sessionId)
      .where('revoked_at', 'is', null)
      .execute()
    await audit(trx, caller, 'admin.logout', `admin:${caller.address}`, {})
  })
  return {}
}
