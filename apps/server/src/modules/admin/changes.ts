// Changes of the allow-list and of the asset settings (four eyes, docs/admin.md). Every such change is a row of
// admin_changes: applied at once when one admin may make it, or — once two admins exist and the change weakens the
// rules — pending until a different admin approves it (applied then, atomically, exactly once) or anyone rejects it.
// A pending change whose target changed since it was proposed is stale: approving it applies nothing.
import { type AdminChange, Code } from '@solpledge/contract'
import type { Selectable, Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { AdminChangeKind, AdminChangeStatus, AdminChangesTable, DB } from '../../db/schema.ts'
import { AppError, refuse } from '../../lib/app-error.ts'
import { type Commit, RefusalAfterCommit } from '../../lib/commit.ts'
import { diff } from '../../lib/diff.ts'
import { pageOf } from '../../lib/paging.ts'
import { adminRemove, adminSave } from './admins.ts'
import { audit, reasonText } from './audit.ts'
import { activeAdmins, lockAllowList } from './four-eyes.ts'
import type { AdminCaller } from './session.ts'
import { assetSave } from './settings.ts'

/** One kind of change: how to read its target's state, whether it weakens the rules, and how to apply it. */
export interface ChangeKind<P, S> {
  kind: AdminChangeKind
  target: (payload: P) => string
  /**
   * The target's current state, read under a lock; at the proposal it also refuses what can never apply (a stale
   * base version, one's own entry). Compared again at the approval: any difference makes the change stale.
   */
  state: (trx: Transaction<DB>, caller: AdminCaller, payload: P, proposing: boolean) => Promise<S>
  /** Whether it weakens the four-eyes rules (then, with two admins or more, it waits for a second one). */
  weakens: (state: S, payload: P, admins: number) => boolean
  /** The fields it changes, before and after, as the console lists them. */
  view: (state: S, payload: P) => { before: unknown; after: unknown }
  /** Makes the change and its one audit entry (with `approval`: the change and its proposer, when approved). */
  apply: (
    trx: Transaction<DB>,
    caller: AdminCaller,
    payload: P,
    state: S,
    approval?: { change: string; proposed_by: string },
  ) => Promise<void>
}

type Row = Selectable<AdminChangesTable>
// biome-ignore lint/suspicious/noExplicitAny: the kinds take different payloads, read back from JSON
type AnyKind = ChangeKind<any, any>
/** A pending change is applied by the kind it was stored with. */
const kinds: Record<AdminChangeKind, AnyKind> = {
  'asset.save': assetSave,
  'admin.save': adminSave,
  'admin.remove': adminRemove,
}

function present(row: Row): AdminChange {
  const kind = kinds[row.kind]
  const { before, after } = kind.view(row.before, row.payload)
  return {
    id: row.id,
    kind: row.kind,
    target: row.target,
    changes: diff(before, after),
    status: row.status,
    approvals_needed: row.approvals_needed,
    proposed_by: row.proposed_by,
    decided_by: row.decided_by,
    decision_reason: row.decision_reason,
    created_at: row.created_at.toISOString(),
    decided_at: row.decided_at?.toISOString() ?? null,
  }
}

/**
 * An admin's change: applied at once, or stored pending when two admins exist and it weakens the rules. Refused
 * proposals store nothing.
 */
export async function submitChange<P, S>(
  commit: Commit<AdminChange>,
  caller: AdminCaller,
  kind: ChangeKind<P, S>,
  payload: P,
): Promise<AdminChange> {
  return commit(async (trx) => {
    await lockAllowList(trx)
    const state = await kind.state(trx, caller, payload, true)
    const admins = await activeAdmins(trx)
    const needed = admins >= 2 && kind.weakens(state, payload, admins) ? 2 : 1
    if (needed === 1) await kind.apply(trx, caller, payload, state)
    const row = await trx
      .insertInto('admin_changes')
      .values({
        kind: kind.kind,
        target: kind.target(payload),
        payload: JSON.stringify(payload),
        before: JSON.stringify(state),
        status: needed === 1 ? 'applied' : 'pending',
        approvals_needed: needed,
        proposed_by: caller.address,
        decided_at: needed === 1 ? new Date() : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    if (needed === 2)
      await audit(trx, caller, 'change.propose', row.target, { change: row.id, kind: row.kind, payload })
    return present(row)
  })
}

async function lockPending(trx: Transaction<DB>, id: string): Promise<Row> {
  const row = await trx.selectFrom('admin_changes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'admin.changeNotFound')
  if (row.status !== 'pending') throw refuse('admin.changeNotPending')
  return row
}

/** A different admin applies a pending change; when its target changed meanwhile it becomes stale instead. */
export async function approveChange(
  commit: Commit<AdminChange>,
  caller: AdminCaller,
  id: string,
): Promise<AdminChange> {
  return commit(async (trx) => {
    await lockAllowList(trx)
    const row = await lockPending(trx, id)
    if (row.proposed_by === caller.address) throw refuse('admin.ownChange')
    const kind = kinds[row.kind]
    const state = await kind.state(trx, caller, row.payload, false)
    const stale = diff(state, row.before).length > 0
    // The applied change's own audit entry (admin.save, asset.save, …) names the change and its proposer.
    if (stale) await audit(trx, caller, 'change.stale', row.target, { change: row.id, kind: row.kind })
    else await kind.apply(trx, caller, row.payload, state, { change: row.id, proposed_by: row.proposed_by })
    const result = await trx
      .updateTable('admin_changes')
      .set({ status: stale ? 'stale' : 'applied', decided_by: caller.address, decided_at: new Date() })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    // The stale mark is kept (the change is closed) and the caller told that nothing was applied.
    if (result.status === 'stale') throw new RefusalAfterCommit(refuse('admin.changeStale'))
    return present(result)
  })
}

/** Rejects a pending change (any admin; the proposer may withdraw their own); nothing changes. */
export async function rejectChange(
  commit: Commit<AdminChange>,
  caller: AdminCaller,
  id: string,
  reason: string,
): Promise<AdminChange> {
  const text = reasonText(reason)
  return commit(async (trx) => {
    const row = await lockPending(trx, id)
    const updated = await trx
      .updateTable('admin_changes')
      .set({
        status: 'rejected',
        // The two-admin CHECK only constrains a second admin; the proposer withdrawing their own leaves it null.
        decided_by: row.proposed_by === caller.address ? null : caller.address,
        decision_reason: text,
        decided_at: new Date(),
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit(trx, caller, 'change.reject', row.target, { change: row.id, kind: row.kind, reason: text })
    return present(updated)
  })
}

export async function listChanges(
  db: Database,
  query: { status?: AdminChangeStatus | undefined; page: number; limit: number },
) {
  const base = db
    .selectFrom('admin_changes')
    .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status as AdminChangeStatus))
  const { rows, total } = await pageOf(base, query, (qb) => qb.selectAll().orderBy('id', 'desc'))
  return { list: rows.map(present), total, page: query.page, limit: query.limit }
}
