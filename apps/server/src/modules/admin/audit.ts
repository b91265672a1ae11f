// The audit log of the operator console: one append-only row per admin action, written in the same transaction as the
// change it records, so there is never a change without its entry nor an entry without its change.
import type { AdminRole, AuditEntry } from '@solpledge/contract'
import type { Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'
import { invalid } from '../../lib/app-error.ts'
import { startingWith } from '../../lib/like.ts'
import { pageOf } from '../../lib/paging.ts'

/** A decision's reason as stored: trimmed, and still at least 3 characters (the contract counts the spaces too). */
export function reasonText(reason: string): string {
  const text = reason.trim()
  if (text.length < 3) throw invalid('error.invalidParams', { detail: 'reason' })
  return text
}

export interface AuditActor {
  address: string
  role: AdminRole
  ip: string | null
}

/** Records an action: who (address, role, ip), what, on what, and its details (before/after values, a reason, …). */
export async function audit(
  trx: Transaction<DB>,
  actor: AuditActor,
  action: string,
  target: string | null,
  details: Record<string, unknown>,
): Promise<void> {
  await trx
    .insertInto('admin_audit')
    .values({
      actor: actor.address,
      role: actor.role,
      action,
      target,
      details: JSON.stringify(details, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)),
      ip: actor.ip,
    })
    .execute()
}

export interface AuditQuery {
  /** Exact, or a prefix when it ends with '.' ('withdrawal.' finds withdrawal.approve and withdrawal.reject). */
  action?: string | undefined
  actor?: string | undefined
  target?: string | undefined
  from?: string | undefined
  to?: string | undefined
  page: number
  limit: number
}

/** The audit log, newest first, filtered. */
export async function listAudit(db: Database, query: AuditQuery) {
  const { action, actor, target, from, to } = query
  const base = db
    .selectFrom('admin_audit')
    .$if(action !== undefined, (qb) =>
      (action as string).endsWith('.')
        ? qb.where('action', 'like', startingWith(action as string))
        : qb.where('action', '=', action as string),
    )
    .$if(actor !== undefined, (qb) => qb.where('actor', '=', actor as string))
    .$if(target !== undefined, (qb) => qb.where('target', '=', target as string))
    .$if(from !== undefined, (qb) => qb.where('at', '>=', new Date(from as string)))
    .$if(to !== undefined, (qb) => qb.where('at', '<', new Date(to as string)))
  const { rows, total } = await pageOf(base, query, (qb) => qb.selectAll().orderBy('at', 'desc').orderBy('id', 'desc'))
  const list: AuditEntry[] = rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor,
    role: row.role,
    action: row.action,
    target: row.target,
    details: row.details,
    ip: row.ip,
  }))
  return { list, total, page: query.page, limit: query.limit }
}
