// Withdrawal review (docs/admin.md): withdrawals at or above an asset's review_threshold wait in 'review'. An operator
// approves (to the sender's queue) or rejects with a reason (the locked amount returns to the user). At or above the
// dual_review_threshold — every one in review when it is unset — two different operators must approve once two exist:
// one row per (withdrawal, operator) in withdrawal_approvals, so the same operator twice is impossible even under
// concurrent calls.
import { type AdminWithdrawal, Code } from '@solpledge/contract'
import type { Selectable, Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB, WithdrawalStatus, WithdrawalsTable } from '../../db/schema.ts'
import { AppError, refuse } from '../../lib/app-error.ts'
import type { Commit } from '../../lib/commit.ts'
import { pageOf } from '../../lib/paging.ts'
import { approveWithdrawal, presentWithdrawal, rejectInReview } from '../withdrawals/index.ts'
import { audit, reasonText } from './audit.ts'
import { activeReviewers } from './four-eyes.ts'
import type { AdminCaller } from './session.ts'

type Row = Selectable<WithdrawalsTable> & {
  user_address: string
  decimals: number
  dual_review_threshold: string | null
}

const withdrawals = (db: Database) =>
  db
    .selectFrom('withdrawals as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .innerJoin('assets as a', 'a.code', 'w.asset')

const columns = ['u.address as user_address', 'a.decimals', 'a.dual_review_threshold'] as const

/**
 * 2 when the amount reaches the asset's dual review threshold (unset: every withdrawal in review) and two reviewers
 * exist to give them; else 1.
 */
const approvalsNeeded = (row: { amount: string; dual_review_threshold: string | null }, reviewers: number) =>
  reviewers >= 2 && (row.dual_review_threshold === null || BigInt(row.amount) >= BigInt(row.dual_review_threshold))
    ? 2
    : 1

async function present(db: Database, rows: Row[]): Promise<AdminWithdrawal[]> {
  const reviewers = await activeReviewers(db)
  const approvals = rows.length
    ? await db
        .selectFrom('withdrawal_approvals')
        .selectAll()
        .where(
          'withdrawal_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('at')
        .execute()
    : []
  return rows.map((row) => ({
    ...presentWithdrawal(row, row.decimals),
    user_id: row.user_id,
    user_address: row.user_address,
    error: row.error,
    approvals_needed: approvalsNeeded(row, reviewers),
    approvals: approvals
      .filter((a) => a.withdrawal_id === row.id)
      .map((a) => ({ admin: a.admin, role: a.role, at: a.at.toISOString() })),
  }))
}

/** Withdrawals of a status: the review queue oldest first (first come, first decided), the others newest first. */
export async function listWithdrawals(
  db: Database,
  query: {
    status: WithdrawalStatus
    coin?: string | undefined
    address?: string | undefined
    page: number
    limit: number
  },
) {
  const base = withdrawals(db)
    .where('w.status', '=', query.status)
    .$if(query.coin !== undefined, (qb) => qb.where('w.asset', '=', query.coin as string))
    .$if(query.address !== undefined, (qb) => qb.where('u.address', '=', query.address as string))
  const { rows, total } = await pageOf(base, query, (qb) =>
    qb
      .selectAll('w')
      .select(columns)
      .orderBy('w.id', query.status === 'review' ? 'asc' : 'desc'),
  )
  return { list: await present(db, rows), total, page: query.page, limit: query.limit }
}

/** The withdrawal under its row lock, for a decision. */
async function lockForDecision(trx: Transaction<DB>, id: string): Promise<Row> {
  const row = await withdrawals(trx)
    .selectAll('w')
    .select(columns)
    .where('w.id', '=', id)
    .forUpdate('w')
    .executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'admin.withdrawalNotFound')
  if (row.status !== 'review') throw refuse('admin.notInReview')
  return row
}

const summary = (row: Row) => ({ user: row.user_address, coin: row.asset, amount: row.amount, fee: row.fee })

/** Records the operator's approval; the withdrawal goes to the sender once it has the approvals it needs. */
export async function approve(
  commit: Commit<AdminWithdrawal>,
  caller: AdminCaller,
  id: string,
): Promise<AdminWithdrawal> {
  return commit(async (trx) => {
    const row = await lockForDecision(trx, id)
    const added = await trx
      .insertInto('withdrawal_approvals')
      .values({ withdrawal_id: id, admin: caller.address, role: caller.role })
      .onConflict((oc) => oc.doNothing())
      .returning('admin')
      .executeTakeFirst()
    if (!added) throw refuse('admin.alreadyApproved')
    const given = await trx
      .selectFrom('withdrawal_approvals')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('withdrawal_id', '=', id)
      .executeTakeFirstOrThrow()
    const needed = approvalsNeeded(row, await activeReviewers(trx))
    const approved = Number(given.n) >= needed
    if (approved && !(await approveWithdrawal(trx, id))) throw refuse('admin.notInReview')
    await audit(trx, caller, 'withdrawal.approve', `withdrawal:${id}`, {
      ...summary(row),
      approvals: Number(given.n),
      approvals_needed: needed,
      status: approved ? 'pending' : 'review',
    })
    const [updated] = await present(trx, [{ ...row, status: approved ? 'pending' : 'review' }])
    return updated as AdminWithdrawal
  })
}

/** Rejects a withdrawal in review: the locked amount returns to the user's available balance. */
export async function reject(
  commit: Commit<AdminWithdrawal>,
  caller: AdminCaller,
  id: string,
  reason: string,
): Promise<AdminWithdrawal> {
  const text = reasonText(reason)
  return commit(async (trx) => {
    const row = await lockForDecision(trx, id)
    const rejected = await rejectInReview(trx, id, text)
    if (!rejected) throw refuse('admin.notInReview')
    await audit(trx, caller, 'withdrawal.reject', `withdrawal:${id}`, { ...summary(row), reason: text })
    const [updated] = await present(trx, [{ ...row, ...rejected }])
    return updated as AdminWithdrawal
  })
}
