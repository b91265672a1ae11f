// Manual balance adjustments (docs/admin.md): a signed amount on a user's available balance with a mandatory reason,
// made as one ledger transfer against the system account 'adjustments' of the asset (so the books stay balanced and
// the solvency report shows it). Once two admins exist, every adjustment waits for a second admin, who cannot be the
// requester (checked here and by a CHECK constraint): no amount is small enough for one admin to mint alone.
import { type Adjustment, Code, parseAmount } from '@solpledge/contract'
import type { Selectable, Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { AdjustmentStatus, AdjustmentsTable, DB } from '../../db/schema.ts'
import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import type { Commit } from '../../lib/commit.ts'
import { pageOf } from '../../lib/paging.ts'
import { requireAsset } from '../assets/index.ts'
import { balances, systemAccount, transfer, userAccount } from '../ledger/index.ts'
import { findNodeLevel, purchaseNode } from '../node/index.ts'
import { audit, reasonText } from './audit.ts'
import { activeAdmins } from './four-eyes.ts'
import type { AdminCaller } from './session.ts'
import { requireUser } from './users.ts'

/** The system account adjustments are made against. */
export const ADJUSTMENT_ACCOUNT = 'adjustments'

type Row = Selectable<AdjustmentsTable> & { user_address: string; decimals: number }

const adjustments = (db: Database) =>
  db
    .selectFrom('adjustments as j')
    .innerJoin('users as u', 'u.id', 'j.user_id')
    .innerJoin('assets as a', 'a.code', 'j.asset')

const withColumns = (qb: ReturnType<typeof adjustments>) =>
  qb.selectAll('j').select(['u.address as user_address', 'a.decimals'])

const present = (row: Row): Adjustment => ({
  id: row.id,
  user_id: row.user_id,
  user_address: row.user_address,
  coin: row.asset,
  decimals: row.decimals,
  amount: row.amount,
  reason: row.reason,
  status: row.status,
  approvals_needed: row.approvals_needed,
  requested_by: row.requested_by,
  decided_by: row.decided_by,
  decision_reason: row.decision_reason,
  transfer_id: row.transfer_id,
  node_level: row.node_level,
  campaign_id: row.campaign_id,
  created_at: row.created_at.toISOString(),
  decided_at: row.decided_at?.toISOString() ?? null,
})

const read = async (trx: Database, id: string) =>
  present(await withColumns(adjustments(trx)).where('j.id', '=', id).executeTakeFirstOrThrow())

/**
 * The ledger transfer of an adjustment: system 'adjustments' → user available, or back for a negative amount. A
 * campaign's node reward then buys its node with that amount (modules/node purchaseNode: the supply cap, one per user
 * and the node's power hold as for any purchase); when it cannot, the whole approval is refused and nothing moves.
 */
async function apply(trx: Transaction<DB>, row: Selectable<AdjustmentsTable>): Promise<string> {
  const amount = BigInt(row.amount)
  const level = row.node_level === null ? undefined : await findNodeLevel(trx, row.node_level)
  if (row.node_level !== null && !level) throw refuse('campaign.nodeLevelGone', { level: row.node_level })
  const user = await userAccount(trx, row.user_id, row.asset, 'available')
  const system = await systemAccount(trx, row.asset, ADJUSTMENT_ACCOUNT)
  const { id } = await transfer(trx, {
    debit: amount > 0n ? system : user,
    credit: amount > 0n ? user : system,
    asset: row.asset,
    amount: amount > 0n ? amount : -amount,
    type: 'admin_adjustment',
    key: `adjustment:${row.id}`,
    reference: `adjustment:${row.id}`,
  })
  if (level) await purchaseNode(trx, row.user_id, level, amount)
  return id
}

export async function listAdjustments(
  db: Database,
  query: { status?: AdjustmentStatus | undefined; address?: string | undefined; page: number; limit: number },
) {
  const base = adjustments(db)
    .$if(query.status !== undefined, (qb) => qb.where('j.status', '=', query.status as AdjustmentStatus))
    .$if(query.address !== undefined, (qb) => qb.where('u.address', '=', query.address as string))
  const { rows, total } = await pageOf(base, query, (qb) => withColumns(qb).orderBy('j.id', 'desc'))
  return { list: rows.map(present), total, page: query.page, limit: query.limit }
}

/**
 * Requests an adjustment: stored as pending for a second admin, or applied at once while there is only one admin. A
 * debit the balance cannot cover is refused with nothing stored.
 */
export async function createAdjustment(
  db: Database,
  commit: Commit<Adjustment>,
  caller: AdminCaller,
  input: { address: string; coin: string; amount: string; reason: string },
): Promise<Adjustment> {
  const reason = reasonText(input.reason)
  const [user, asset] = await Promise.all([requireUser(db, input.address), requireAsset(db, input.coin)])
  // Typed in the coin's units ('-2.5'), kept in base units; more decimals than the coin has, or 0, are refused.
  const negative = input.amount.startsWith('-')
  const parsed = parseAmount(negative ? input.amount.slice(1) : input.amount, asset.decimals)
  if (!parsed.ok || parsed.value === 0n)
    throw invalid('admin.amountDecimals', { field: 'amount', coin: asset.code, decimals: asset.decimals })
  const amount = negative ? -parsed.value : parsed.value
  // A debit the balance cannot cover now is refused at once rather than left for the second admin to find out.
  if (amount < 0n && ((await balances(db, user.id))[asset.code]?.available ?? 0n) < -amount)
    throw refuse('common.insufficientBalance')
  return commit(async (trx) => {
    const { id } = await proposeAdjustment(trx, caller, {
      userId: user.id,
      userAddress: user.address,
      asset: asset.code,
      amount,
      reason,
    })
    return read(trx, id)
  })
}

/** What an adjustment is made of: a signed amount of an asset for a user, and for a campaign's node reward its level. */
export interface AdjustmentInput {
  userId: string
  userAddress: string
  asset: string
  amount: bigint
  reason: string
  /** A campaign's node reward: the level the (positive) amount buys when applied, and the campaign. */
  reward?: { nodeLevel: string; campaignId: string }
}

/**
 * Stores an adjustment in the caller's transaction, audited: pending for a second admin, or applied at once while
 * there is only one admin (`needed` 1). The one way an adjustment is made, by hand or by a campaign's rewards.
 */
export async function proposeAdjustment(
  trx: Transaction<DB>,
  caller: AdminCaller,
  input: AdjustmentInput,
): Promise<{ id: string; status: AdjustmentStatus }> {
  const needed = (await activeAdmins(trx)) >= 2 ? 2 : 1
  const row = await trx
    .insertInto('adjustments')
    .values({
      user_id: input.userId,
      asset: input.asset,
      amount: input.amount.toString(),
      reason: input.reason,
      status: 'pending',
      approvals_needed: needed,
      requested_by: caller.address,
      node_level: input.reward?.nodeLevel ?? null,
      campaign_id: input.reward?.campaignId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  if (needed === 1) {
    const transferId = await apply(trx, row)
    await trx
      .updateTable('adjustments')
      .set({ status: 'applied', transfer_id: transferId, decided_at: new Date() })
      .where('id', '=', row.id)
      .execute()
  }
  const status = needed === 1 ? 'applied' : 'pending'
  await audit(trx, caller, 'adjustment.create', `user:${input.userAddress}`, {
    adjustment: row.id,
    coin: input.asset,
    amount: input.amount.toString(),
    reason: input.reason,
    approvals_needed: needed,
    status,
    ...(input.reward ? { node_level: input.reward.nodeLevel, campaign: input.reward.campaignId } : {}),
  })
  return { id: row.id, status }
}

async function lockPending(trx: Transaction<DB>, id: string) {
  const row = await trx.selectFrom('adjustments').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'admin.adjustmentNotFound')
  if (row.status !== 'pending') throw refuse('admin.adjustmentNotPending')
  return row
}

/** The second admin applies a pending adjustment; the requester cannot. */
export async function approveAdjustment(
  commit: Commit<Adjustment>,
  caller: AdminCaller,
  id: string,
): Promise<Adjustment> {
  return commit(async (trx) => {
    const row = await lockPending(trx, id)
    if (row.requested_by === caller.address) throw refuse('admin.ownAdjustment')
    const transferId = await apply(trx, row)
    await trx
      .updateTable('adjustments')
      .set({ status: 'applied', transfer_id: transferId, decided_by: caller.address, decided_at: new Date() })
      .where('id', '=', id)
      .execute()
    const adjustment = await read(trx, id)
    await audit(trx, caller, 'adjustment.approve', `user:${adjustment.user_address}`, {
      adjustment: id,
      coin: row.asset,
      amount: row.amount,
      requested_by: row.requested_by,
    })
    return adjustment
  })
}

/** Rejects a pending adjustment (any admin, the requester too, e.g. to withdraw a mistake); nothing moves. */
export async function rejectAdjustment(
  commit: Commit<Adjustment>,
  caller: AdminCaller,
  id: string,
  reason: string,
): Promise<Adjustment> {
  const text = reasonText(reason)
  return commit(async (trx) => {
    const row = await lockPending(trx, id)
    await trx
      .updateTable('adjustments')
      .set({
        status: 'rejected',
        // The two-admin CHECK only constrains a second admin; the requester withdrawing their own leaves it null.
        decided_by: row.requested_by === caller.address ? null : caller.address,
        decision_reason: text,
        decided_at: new Date(),
      })
      .where('id', '=', id)
      .execute()
    const adjustment = await read(trx, id)
    await audit(trx, caller, 'adjustment.reject', `user:${adjustment.user_address}`, {
      adjustment: id,
      coin: row.asset,
      amount: row.amount,
      reason: text,
    })
    return adjustment
  })
}
