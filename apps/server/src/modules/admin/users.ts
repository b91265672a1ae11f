// Users in the operator console: look-up, the figures and records the app shows the user (read through the same
// service functions), their sessions, and revoking them.
import { type AdminUserDetail, Code, isId } from '@solpledge/contract'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { AppError, invalid } from '../../lib/app-error.ts'
import { startingWith } from '../../lib/like.ts'
import { pageOf } from '../../lib/paging.ts'
import { listAssets } from '../assets/index.ts'
import type { SessionCache } from '../auth/index.ts'
import { balances } from '../ledger/index.ts'
import { usdtDecimals } from '../team/index.ts'
import { toUser, userQuery } from '../user/index.ts'
import { audit, reasonText } from './audit.ts'
import type { AdminCaller } from './session.ts'

const present = (row: Parameters<typeof toUser>[0]) => {
  const { invite_code: _, ...user } = toUser(row)
  return user
}

/** The user of an address, or not found. */
export async function requireUser(db: Database, address: string) {
  const row = await userQuery(db).select('u.depth').where('u.address', '=', address).executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'admin.userNotFound')
  return row
}

/** Users newest first; q: an address prefix (3 characters at least) or a user id. */
export async function listUsers(db: Database, query: { q?: string | undefined; page: number; limit: number }) {
  const q = query.q?.trim()
  const byId = q !== undefined && isId(q)
  if (q !== undefined && q.length < 3 && !byId) throw invalid('error.invalidParams', { detail: 'q' })
  const base = userQuery(db)
    .clearSelect()
    .$if(q !== undefined, (qb) =>
      qb.where((eb) => {
        const prefix = eb('u.address', 'like', startingWith(q as string))
        return byId ? eb.or([prefix, eb('u.id', '=', q as string)]) : prefix
      }),
    )
  const { rows, total } = await pageOf(base, query, (qb) =>
    qb.select(['u.id', 'u.address', 'u.created_at', 'p.address as parent_address']).orderBy('u.id', 'desc'),
  )
  return { list: rows.map(present), total, page: query.page, limit: query.limit }
}

export async function userDetail(db: Database, address: string): Promise<AdminUserDetail> {
  const user = await requireUser(db, address)
  const [power, held, assets, decimals, sessions] = await Promise.all([
    db.selectFrom('user_power').selectAll().where('user_id', '=', user.id).executeTakeFirst(),
    balances(db, user.id),
    listAssets(db),
    usdtDecimals(db),
    db
      .selectFrom('sessions')
      .select(sql<string>`count(*)`.as('n'))
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date())
      .executeTakeFirstOrThrow(),
  ])
  return {
    ...present(user),
    depth: user.depth,
    team: {
      usdt_decimals: decimals,
      team_count: Number(power?.team_count ?? 0),
      direct_count: Number(power?.direct_count ?? 0),
      performance: power?.performance ?? '0',
      team_performance: power?.team_performance ?? '0',
      personal_power: power?.personal_power ?? '0',
      team_power: power?.team_power ?? '0',
    },
    balances: assets.map((asset) => ({
      coin: asset.code,
      decimals: asset.decimals,
      available: (held[asset.code]?.available ?? 0n).toString(),
      locked: (held[asset.code]?.locked ?? 0n).toString(),
    })),
    active_sessions: Number(sessions.n),
  }
}

export async function userSessions(db: Database, address: string, query: { page: number; limit: number }) {
  const user = await requireUser(db, address)
  const now = new Date()
  const { rows, total } = await pageOf(db.selectFrom('sessions').where('user_id', '=', user.id), query, (qb) =>
    qb.select(['id', 'created_at', 'expires_at', 'revoked_at']).orderBy('id', 'desc'),
  )
  return {
    list: rows.map((row) => ({
      id: row.id,
      created_at: row.created_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
      revoked_at: row.revoked_at?.toISOString() ?? null,
      active: row.revoked_at === null && row.expires_at > now,
    })),
    total,
    page: query.page,
    limit: query.limit,
  }
}

/**
 * Revokes one of the user's live sessions, or all of them: their next call is answered -403 (by this instance at once;
 * by another one within its SESSION_CACHE_MS).
 */
export async function revokeSessions(
  db: Database,
  sessions: SessionCache,
  caller: AdminCaller,
  input: { address: string; session_id?: string | undefined; reason: string },
): Promise<{ revoked: number }> {
  const reason = reasonText(input.reason)
  const user = await requireUser(db, input.address)
  const result = await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .$if(input.session_id !== undefined, (qb) => qb.where('id', '=', input.session_id as string))
      .executeTakeFirst()
    const revoked = Number(result.numUpdatedRows)
    await audit(trx, caller, 'user.revokeSessions', `user:${user.address}`, {
      session_id: input.session_id ?? null,
      revoked,
      reason,
    })
    return { revoked }
  })
  sessions.forgetUser(user.id)
  return result
}
