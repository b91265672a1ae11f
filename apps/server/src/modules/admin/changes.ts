// Changes of the allow-list, the asset settings, the business configuration and releases of held settlement days
// (four eyes and notice, docs/admin.md, docs/economics.md). Every such change is a row of admin_changes: applied at once
// when one admin may make it, or — once two admins exist and the change weakens the rules or raises payouts — pending
// until a different admin approves it or anyone rejects it. A change that raises what the platform pays (or lowers
// what it takes) is then scheduled: announced to users and applied at effective_at, the end of its notice period, by
// the changes job (applyDueChanges), unless an admin cancels it first. A pending or scheduled change whose target
// changed since it was proposed is stale: nothing is applied.
import { type AdminChange, Code } from '@solpledge/contract'
import type { Selectable, Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { AdminChangeKind, AdminChangeStatus, AdminChangesTable, DB } from '../../db/schema.ts'
import { AppError, refuse } from '../../lib/app-error.ts'
import { type Commit, RefusalAfterCommit } from '../../lib/commit.ts'
import { diff } from '../../lib/diff.ts'
import { pageOf } from '../../lib/paging.ts'
import { adminRemove, adminSave } from './admins.ts'
import { type AuditActor, audit, reasonText } from './audit.ts'
import { activeAdmins, lockAllowList } from './four-eyes.ts'
import { releaseDay } from './release.ts'
import { assetSave, configSave } from './settings.ts'

/** One kind of change: how to read its target's state, whether it weakens the rules, and how to apply it. */
export interface ChangeKind<P, S> {
  kind: AdminChangeKind
  target: (payload: P) => string
  /**
   * The target's current state, read under a lock; at the proposal it also refuses what can never apply (a stale
   * base version, one's own entry, values beyond their bounds). Compared again at the approval and when a scheduled
   * change applies: any difference makes the change stale.
   */
  state: (trx: Transaction<DB>, caller: AuditActor, payload: P, proposing: boolean) => Promise<S>
  /** Whether it weakens the four-eyes rules (then, with two admins or more, it waits for a second one). */
  weakens: (state: S, payload: P, admins: number) => boolean
  /**
   * Whether it raises what the platform pays or lowers what it takes (docs/economics.md): a second admin once two
   * exist, and it applies only after the notice period.
   */
  raisesPayouts?: (state: S, payload: P) => boolean
  /** The fields it changes, before and after, as the console lists them. */
  view: (state: S, payload: P) => { before: unknown; after: unknown }
  /** Makes the change and its one audit entry (with `approval`: the change and its proposer, when approved). */
  apply: (
    trx: Transaction<DB>,
    caller: AuditActor,
    payload: P,
    state: S,
    approval?: { change: string; proposed_by: string },
  ) => Promise<void>
}

/** How changes are decided: the notice period of a change that raises payouts (ECONOMICS_NOTICE_HOURS). */
export interface ChangeRules {
  noticeHours: number
}

type Row = Selectable<AdminChangesTable>
// biome-ignore lint/suspicious/noExplicitAny: the kinds take different payloads, read back from JSON
type AnyKind = ChangeKind<any, any>
/** A pending change is applied by the kind it was stored with. */
const kinds: Record<AdminChangeKind, AnyKind> = {
  'asset.save': assetSave,
  'admin.save': adminSave,
  'admin.remove': adminRemove,
  'config.save': configSave,
  'settlement.release': releaseDay,
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
    raises_payouts: row.raises_payouts,
    effective_at: row.effective_at?.toISOString() ?? null,
    approvals_needed: row.approvals_needed,
    proposed_by: row.proposed_by,
    decided_by: row.decided_by,
    decision_reason: row.decision_reason,
    created_at: row.created_at.toISOString(),
    decided_at: row.decided_at?.toISOString() ?? null,
  }
}

/** When a change decided now that raises payouts takes effect: the end of its notice period. */
const noticeEnd = (rules: ChangeRules, now = new Date()) => new Date(now.getTime() + rules.noticeHours * 3_600_000)

/** Refuses a change of a target that already has a change scheduled: it would apply over that one. */
async function refuseWhileScheduled(trx: Transaction<DB>, target: string, except?: string): Promise<void> {
  const scheduled = await trx
    .selectFrom('admin_changes')
    .select(['id', 'effective_at'])
    .where('target', '=', target)
    .where('status', '=', 'scheduled')
    .$if(except !== undefined, (qb) => qb.where('id', '<>', except as string))
    .executeTakeFirst()
  if (scheduled) throw refuse('admin.changeWaiting', { at: atText(scheduled.effective_at) })
}

/** A time as the console's messages name it: '2026-05-02 12:00 UTC'. */
export const atText = (at: Date | null) => `${(at ?? new Date()).toISOString().slice(0, 16).replace('T', ' ')} UTC`

/**
 * An admin's change: applied at once, stored pending when two admins exist and it weakens the rules or raises
 * payouts, or scheduled after the notice period when it raises payouts and one admin may decide it. Refused proposals
 * store nothing.
 */
export async function submitChange<P, S>(
  commit: Commit<AdminChange>,
  caller: AuditActor,
  kind: ChangeKind<P, S>,
  payload: P,
  rules: ChangeRules,
): Promise<AdminChange> {
  return commit(async (trx) => {
    await lockAllowList(trx)
    const target = kind.target(payload)
    await refuseWhileScheduled(trx, target)
    const state = await kind.state(trx, caller, payload, true)
    const admins = await activeAdmins(trx)
    const raises = kind.raisesPayouts?.(state, payload) ?? false
    const needed = admins >= 2 && (raises || kind.weakens(state, payload, admins)) ? 2 : 1
    const status: AdminChangeStatus = needed === 2 ? 'pending' : raises ? 'scheduled' : 'applied'
    const now = new Date()
    if (status === 'applied') await kind.apply(trx, caller, payload, state)
    const row = await trx
      .insertInto('admin_changes')
      .values({
        kind: kind.kind,
        target,
        payload: JSON.stringify(payload),
        before: JSON.stringify(state),
        status,
        raises_payouts: raises,
        effective_at: status === 'scheduled' ? noticeEnd(rules, now) : status === 'applied' ? now : null,
        approvals_needed: needed,
        proposed_by: caller.address,
        decided_at: needed === 1 ? now : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    if (status === 'pending')
      await audit(trx, caller, 'change.propose', row.target, { change: row.id, kind: row.kind, payload })
    if (status === 'scheduled')
      await audit(trx, caller, 'change.schedule', row.target, {
        change: row.id,
        kind: row.kind,
        payload,
        effective_at: row.effective_at,
      })
    return present(row)
  })
}

async function lockOpen(trx: Transaction<DB>, id: string, statuses: AdminChangeStatus[]): Promise<Row> {
  const row = await trx.selectFrom('admin_changes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'admin.changeNotFound')
  if (!statuses.includes(row.status)) throw refuse('admin.changeNotPending')
  return row
}

/**
 * Applies a decided change when its target is as it was proposed (else marks it stale with its audit entry): the
 * change's own audit entry (admin.save, asset.save, config.save, …) names the change and its proposer.
 */
async function applyOrStale(trx: Transaction<DB>, actor: AuditActor, row: Row): Promise<'applied' | 'stale'> {
  const kind = kinds[row.kind]
  const state = await kind.state(trx, actor, row.payload, false)
  if (diff(state, row.before).length > 0) {
    await audit(trx, actor, 'change.stale', row.target, { change: row.id, kind: row.kind })
    return 'stale'
  }
  await kind.apply(trx, actor, row.payload, state, { change: row.id, proposed_by: row.proposed_by })
  return 'applied'
}

/**
 * A different admin decides a pending change: applied at once, or scheduled after the notice period when it raises
 * payouts; when its target changed meanwhile it becomes stale instead.
 */
export async function approveChange(
  commit: Commit<AdminChange>,
  caller: AuditActor,
  id: string,
  rules: ChangeRules,
): Promise<AdminChange> {
  return commit(async (trx) => {
    await lockAllowList(trx)
    const row = await lockOpen(trx, id, ['pending'])
    if (row.proposed_by === caller.address) throw refuse('admin.ownChange')
    await refuseWhileScheduled(trx, row.target, row.id)
    const now = new Date()
    let status: AdminChangeStatus
    if (row.raises_payouts) {
      const state = await kinds[row.kind].state(trx, caller, row.payload, false)
      status = diff(state, row.before).length > 0 ? 'stale' : 'scheduled'
      if (status === 'stale') await audit(trx, caller, 'change.stale', row.target, { change: row.id, kind: row.kind })
    } else status = await applyOrStale(trx, caller, row)
    const effective = status === 'scheduled' ? noticeEnd(rules, now) : status === 'applied' ? now : null
    if (status === 'scheduled')
      await audit(trx, caller, 'change.schedule', row.target, {
        change: row.id,
        kind: row.kind,
        proposed_by: row.proposed_by,
        effective_at: effective,
      })
    const result = await trx
      .updateTable('admin_changes')
      .set({ status, effective_at: effective, decided_by: caller.address, decided_at: now })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    // The stale mark is kept (the change is closed) and the caller told that nothing was applied.
    if (result.status === 'stale') throw new RefusalAfterCommit(refuse('admin.changeStale'))
    return present(result)
  })
}

/**
 * Applies every scheduled change whose notice period has ended by `now`, oldest first, each in its own transaction
 * (several instances may run it: the row lock and the allow-list lock make each apply once). The change's audit entry
 * names the admin who decided it (the second admin, or the proposer who could decide alone).
 */
export async function applyDueChanges(db: Database, now = new Date()): Promise<AdminChange[]> {
  const applied: AdminChange[] = []
  for (;;) {
    const row = await db.transaction().execute(async (trx) => {
      await lockAllowList(trx)
      const due = await trx
        .selectFrom('admin_changes')
        .selectAll()
        .where('status', '=', 'scheduled')
        .where('effective_at', '<=', now)
        .orderBy('effective_at')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .executeTakeFirst()
      if (!due) return null
      const actor: AuditActor = { address: due.decided_by ?? due.proposed_by, role: 'admin', ip: null }
      const status = await applyOrStale(trx, actor, due)
      return trx
        .updateTable('admin_changes')
        .set({ status })
        .where('id', '=', due.id)
        .returningAll()
        .executeTakeFirstOrThrow()
    })
    if (!row) return applied
    applied.push(present(row))
  }
}

/**
 * Rejects a pending change, or cancels a scheduled one (any admin: cancelling never raises what is paid now; the
 * proposer may withdraw their own); nothing changes.
 */
export async function rejectChange(
  commit: Commit<AdminChange>,
  caller: AuditActor,
  id: string,
  reason: string,
): Promise<AdminChange> {
  const text = reasonText(reason)
  return commit(async (trx) => {
    const row = await lockOpen(trx, id, ['pending', 'scheduled'])
    const cancelling = row.status === 'scheduled'
    const updated = await trx
      .updateTable('admin_changes')
      .set({
        status: cancelling ? 'cancelled' : 'rejected',
        // The two-admin CHECK only constrains a second admin; the proposer withdrawing their own leaves it null. A
        // cancelled change keeps the admin who decided it; the audit entry names who cancelled it.
        decided_by: cancelling ? row.decided_by : row.proposed_by === caller.address ? null : caller.address,
        decision_reason: text,
        decided_at: cancelling ? row.decided_at : new Date(),
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit(trx, caller, cancelling ? 'change.cancel' : 'change.reject', row.target, {
      change: row.id,
      kind: row.kind,
      reason: text,
    })
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
