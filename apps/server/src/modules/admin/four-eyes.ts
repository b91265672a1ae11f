// Four eyes that one admin cannot bypass (docs/admin.md): who can give a second approval, and which changes
// weaken the rules. With fewer than two admins (or two reviewers for withdrawals) the rules cannot apply: one person
// decides alone, and the console's operations screen says so.
import { ADMIN_ROLES, type AdminRole } from '@solpledge/contract'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { ADMINS_LOCK } from './session.ts'

/** How many active operators of these roles are on the allow-list. */
async function countActive(db: Database, roles: AdminRole[]): Promise<number> {
  const row = await db
    .selectFrom('admins')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('removed_at', 'is', null)
    .where('role', 'in', roles)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Active admins: a second admin approves adjustments and weakening changes once there are two. */
export const activeAdmins = (db: Database) => countActive(db, ['admin'])
/** Active reviewers (operators and admins): a second one approves large withdrawals once there are two. */
export const activeReviewers = (db: Database) => countActive(db, ['operator', 'admin'])

/** Serialises every decision that depends on who is on the allow-list (inside the caller's transaction). */
export async function lockAllowList(db: Database): Promise<void> {
  await sql`select pg_advisory_xact_lock(${ADMINS_LOCK})`.execute(db)
}

const rank = (role: AdminRole | null) => (role === null ? -1 : ADMIN_ROLES.indexOf(role))

/**
 * Whether changing an operator's role from `before` (null: not on the list) to `after` (null: removed) weakens the
 * rules: adding anyone, raising a role, or leaving fewer than two of `admins` active admins.
 */
export function weakensAllowList(before: AdminRole | null, after: AdminRole | null, admins: number): boolean {
  if (before === null) return after !== null
  if (rank(after) > rank(before)) return true
  return before === 'admin' && after !== 'admin' && admins - 1 < 2
}

/** A threshold as a number to compare: null (none) is higher than any amount. */
const level = (units: string | null) => (units === null ? Number.POSITIVE_INFINITY : BigInt(units))
const raised = (before: string | null, after: string | null) => level(after) > level(before)
/** An asset's review thresholds, base units (null: none). */
type Thresholds = { review_threshold: string | null; dual_review_threshold: string | null }
/** From which amount a withdrawal in review needs two approvals: the dual threshold, or every one in review. */
const secondApprovalFrom = (s: Thresholds) => s.dual_review_threshold ?? s.review_threshold

/** Whether new asset settings let more withdrawals through without review or without a second approval. */
export const weakensAsset = (before: Thresholds, after: Thresholds): boolean =>
  raised(before.review_threshold, after.review_threshold) ||
  raised(secondApprovalFrom(before), secondApprovalFrom(after))
