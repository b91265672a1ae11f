// Withdrawals (docs/design.md#outflows-withdrawals, docs/money.md): the amount (fee included) moves available → locked
// at request, a review may approve or reject it (rejected: locked → available); the sender (sender.ts, run by the job
// jobs/withdrawal-sender.ts) pays it out.
import { amountParam, type Withdrawal } from '@solpledge/contract'
import type { Selectable, Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB, WithdrawalsTable } from '../../db/schema.ts'
import { refuse } from '../../lib/app-error.ts'
import type { Commit } from '../../lib/commit.ts'
import { pageOf } from '../../lib/paging.ts'
import { requireAsset } from '../assets/index.ts'
import { transfer, userAccount } from '../ledger/index.ts'

export type WithdrawalRow = Selectable<WithdrawalsTable>

/** A withdrawal as the API shows it (the operator console adds who asked and the review's state). */
export function presentWithdrawal(row: WithdrawalRow, decimals: number): Withdrawal {
  return {
    id: row.id,
    coin: row.asset,
    decimals,
    amount: row.amount,
    fee: row.fee,
    receive: (BigInt(row.amount) - BigInt(row.fee)).toString(),
    address: row.to_address,
    status: row.status,
    signature: row.signature,
    // `error` holds a rejection's reason or the sender's last error; only the former is for the user.
    reason: row.status === 'rejected' ? row.error : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/**
 * The user asks to withdraw `amount` base units (fee included) to their own wallet. The withdrawal and its lock
 * (available → locked) are one database transaction (`commit`'s): when the balance does not cover it, nothing is stored.
 */
export async function requestWithdrawal(
  db: Database,
  commit: Commit<Withdrawal>,
  user: { id: string; address: string },
  input: { coin: string; amount: string },
): Promise<Withdrawal> {
  const asset = await requireAsset(db, input.coin)
  if (!asset.withdraw_enabled || !asset.mint) throw refuse('assets.withdrawUnsupported')
  const amount = BigInt(input.amount)
  const fee = BigInt(asset.withdraw_fee)
  const min = BigInt(asset.min_atm_money)
  if (amount < min)
    throw refuse('assets.withdrawBelowMinimum', { min: amountParam(min, asset.decimals), unit: asset.symbol })
  if (amount <= fee)
    throw refuse('assets.withdrawFeeTooHigh', { fee: amountParam(fee, asset.decimals), unit: asset.symbol })
  const review = asset.review_threshold !== null && amount >= BigInt(asset.review_threshold)
  return commit(async (trx) => {
    const row = await trx
      .insertInto('withdrawals')
      .values({
        user_id: user.id,
        asset: asset.code,
        amount: amount.toString(),
        fee: fee.toString(),
        to_address: user.address,
        status: review ? 'review' : 'pending',
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await transfer(trx, {
      debit: await userAccount(trx, user.id, asset.code, 'available'),
      credit: await userAccount(trx, user.id, asset.code, 'locked'),
      asset: asset.code,
      amount,
      type: 'withdraw_lock',
      key: `withdraw:${row.id}:lock`,
      reference: `withdraw:${row.id}`,
    })
    return presentWithdrawal(row, asset.decimals)
  })
}

/** The user's withdrawals, newest first: one page and how many there are in all. */
export async function listWithdrawals(
  db: Database,
  userId: string,
  query: { page: number; limit: number; coin?: string | undefined },
): Promise<{ list: Withdrawal[]; total: number; page: number; limit: number }> {
  const own = db
    .selectFrom('withdrawals as w')
    .where('w.user_id', '=', userId)
    .$if(query.coin !== undefined, (qb) => qb.where('w.asset', '=', query.coin as string))
  const { rows, total } = await pageOf(own, query, (qb) =>
    qb.innerJoin('assets as a', 'a.code', 'w.asset').selectAll('w').select('a.decimals').orderBy('w.id', 'desc'),
  )
  return {
    list: rows.map(({ decimals, ...row }) => presentWithdrawal(row, decimals)),
    total,
    page: query.page,
    limit: query.limit,
  }
}

/** Moves a withdrawal waiting for review to the sender's queue. False when it is not (or no longer) in review. */
export async function approveWithdrawal(db: Database, id: string): Promise<boolean> {
  const result = await db
    .updateTable('withdrawals')
    .set({ status: 'pending', updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'review')
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

/** Refuses a withdrawal waiting for review and gives the locked amount back. False when it is not in review. */
export async function rejectWithdrawal(db: Database, id: string, reason: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => (await rejectInReview(trx, id, reason)) !== undefined)
}

/** rejectWithdrawal inside the caller's transaction: the rejected row, or undefined when it was not in review. */
export async function rejectInReview(trx: Transaction<DB>, id: string, reason: string) {
  const row = await trx
    .updateTable('withdrawals')
    .set({ status: 'rejected', error: reason, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'review')
    .returningAll()
    .executeTakeFirst()
  if (row) await refund(trx, row)
  return row
}

/** Gives the locked amount back (a rejection, or a payout that failed on chain). */
export async function refund(trx: Transaction<DB>, row: WithdrawalRow) {
  await transfer(trx, {
    debit: await userAccount(trx, row.user_id, row.asset, 'locked'),
    credit: await userAccount(trx, row.user_id, row.asset, 'available'),
    asset: row.asset,
    amount: BigInt(row.amount),
    type: 'withdraw_refund',
    key: `withdraw:${row.id}:refund`,
    reference: `withdraw:${row.id}`,
  })
}
