// Withdrawals (DESIGN.md §5, docs/money.md): the amount (fee included) moves available → locked at request; the
// sender job pays amount − fee from the hot wallet by the crash-safe rule (prepare, store, send, decide only from
// payoutStatus), then settles locked → chain (what left) and locked → fees.
import { formatAmount, type Withdrawal } from '@solpledge/contract'
import type { Selectable, Transaction } from 'kysely'
import { payoutStatus, preparePayout, sendPrepared } from '../../chain/payout.ts'
import type { Database } from '../../db/index.ts'
import type { DB, WithdrawalsTable } from '../../db/schema.ts'
import { refuse } from '../../lib/app-error.ts'
import { pageOf } from '../../lib/paging.ts'
import type { Platform } from '../../platform.ts'
import { type AssetRow, requireAsset } from '../assets/service.ts'
import { systemAccount, transfer, userAccount } from '../ledger/service.ts'
import { diagnosePayout, type HotWalletProblem, recordHotWallet } from './hot-wallet.ts'

type WithdrawalRow = Selectable<WithdrawalsTable>

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
 * (available → locked) are one database transaction: when the balance does not cover it, nothing is stored.
 */
export async function requestWithdrawal(
  db: Database,
  user: { id: string; address: string },
  input: { coin: string; amount: string },
): Promise<Withdrawal> {
  const asset = await requireAsset(db, input.coin)
  if (!asset.withdraw_enabled || !asset.mint) throw refuse('assets.withdrawUnsupported')
  const amount = BigInt(input.amount)
  const fee = BigInt(asset.withdraw_fee)
  const min = BigInt(asset.min_atm_money)
  if (amount < min)
    throw refuse('assets.withdrawBelowMinimum', { min: formatAmount(min, asset.decimals), unit: asset.symbol })
  if (amount <= fee)
    throw refuse('assets.withdrawFeeTooHigh', { fee: formatAmount(fee, asset.decimals), unit: asset.symbol })
  const review = asset.review_threshold !== null && amount >= BigInt(asset.review_threshold)
  const row = await db.transaction().execute(async (trx) => {
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
    return row
  })
  return presentWithdrawal(row, asset.decimals)
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

async function refund(trx: Transaction<DB>, row: WithdrawalRow) {
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

/** Pays out amount − fee and settles the ledger, in one transaction with the status change. */
async function settle(trx: Transaction<DB>, row: WithdrawalRow): Promise<boolean> {
  const updated = await trx
    .updateTable('withdrawals')
    .set({ status: 'confirmed', error: null, updated_at: new Date() })
    .where('id', '=', row.id)
    .where('status', '=', 'sent')
    .where('signature', '=', row.signature)
    .executeTakeFirst()
  if (updated.numUpdatedRows !== 1n) return false
  const locked = await userAccount(trx, row.user_id, row.asset, 'locked')
  const fee = BigInt(row.fee)
  await transfer(trx, {
    debit: locked,
    credit: await systemAccount(trx, row.asset, 'chain'),
    asset: row.asset,
    amount: BigInt(row.amount) - fee,
    type: 'withdraw_pay',
    key: `withdraw:${row.id}:pay`,
    reference: `withdraw:${row.id}`,
  })
  if (fee > 0n)
    await transfer(trx, {
      debit: locked,
      credit: await systemAccount(trx, row.asset, 'fees'),
      asset: row.asset,
      amount: fee,
      type: 'withdraw_fee',
      key: `withdraw:${row.id}:fee`,
      reference: `withdraw:${row.id}`,
    })
  return true
}

/** What a withdrawal pays out: its amount less the fee. */
const payout = (row: WithdrawalRow) => BigInt(row.amount) - BigInt(row.fee)

function prepare(platform: Platform, asset: AssetRow, row: WithdrawalRow) {
  if (!asset.mint) throw new Error(`withdrawal ${row.id}: asset ${asset.code} has no mint`)
  return preparePayout(platform.chain, {
    hotWallet: platform.hotWallet,
    mint: asset.mint,
    decimals: asset.decimals,
    to: row.to_address,
    amount: payout(row),
    memo: `withdraw:${row.id}`,
  })
}

/** The sender's steps, reported to `onStep` right after each is durable or done (the crash tests stop there). */
export type SenderStep = 'stored' | 'sent' | 'confirmed'

export interface SenderHooks {
  onStep?: (step: SenderStep, withdrawalId: string) => void
}

export interface SenderPass {
  checked: number
  /** Transactions handed to the node (first sends, resends and replacements). */
  sent: number
  /** Transactions the node's preflight refused (e.g. the hot wallet lacks the tokens); they are retried. */
  refused: number
  /** Why the hot wallet could not pay (the first refusal of the pass, diagnosed); null when nothing was refused. */
  problem: HotWalletProblem | null
  /** How this pass changed the hot wallet's gauge (platform.hotWalletStatus): the server logs new problems loudly. */
  hotWallet: 'new' | 'recovered' | 'unchanged'
  confirmed: number
  failed: number
  /** Expired transactions replaced by a new one. */
  renewed: number
  errors: { id: string; error: unknown }[]
}

/** How many open withdrawals one pass looks at; the rest wait for the next pass. */
const BATCH = 100

/**
 * One pass of the sender over the withdrawals in 'pending' or 'sent', oldest first (docs/money.md, the crash-safety
 * rule). Each one is handled under its row lock (`for update skip locked`), so several instances never work on the same
 * withdrawal at once; every status change is also conditional, so a stale view can never pay twice. A withdrawal
 * that fails (RPC down, …) is reported in `errors` and retried by the next pass.
 */
export async function processWithdrawals(
  db: Database,
  platform: Platform,
  hooks: SenderHooks = {},
): Promise<SenderPass> {
  const open = await db
    .selectFrom('withdrawals')
    .select('id')
    .where('status', 'in', ['pending', 'sent'])
    .orderBy('id')
    .limit(BATCH)
    .execute()
  const pass: SenderPass = {
    checked: open.length,
    sent: 0,
    refused: 0,
    problem: null,
    hotWallet: 'unchanged',
    confirmed: 0,
    failed: 0,
    renewed: 0,
    errors: [],
  }
  for (const { id } of open) {
    try {
      await processOne(db, platform, id, pass, hooks)
    } catch (error) {
      pass.errors.push({ id, error })
    }
  }
  pass.hotWallet = recordHotWallet(platform.hotWalletStatus, pass)
  return pass
}

type Decision =
  | { action: 'none' | 'confirmed' | 'failed' }
  | { action: 'send'; stored: 'new' | 'renewed' | false; signature: string; wireTransaction: string }

async function processOne(db: Database, platform: Platform, id: string, pass: SenderPass, hooks: SenderHooks) {
  // Decide and store under the row lock. Sending happens only after the commit: the stored bytes must be durable
  // before they can be in flight, or a crash would forget a transaction that may still land.
  let payment: { asset: AssetRow; amount: bigint } | undefined
  const decision = await db.transaction().execute(async (trx): Promise<Decision> => {
    const row = await trx
      .selectFrom('withdrawals')
      .selectAll()
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'sent'])
      .forUpdate()
      .skipLocked()
      .executeTakeFirst()
    if (!row) return { action: 'none' } // another instance holds it, or it moved on meanwhile
    const asset = await requireAsset(trx, row.asset)
    payment = { asset, amount: payout(row) }

    if (row.status === 'pending') {
      const prepared = await prepare(platform, asset, row)
      const stored = await trx
        .updateTable('withdrawals')
        .set({
          status: 'sent',
          signature: prepared.signature,
          wire_transaction: prepared.wireTransaction,
          last_valid_block_height: prepared.lastValidBlockHeight.toString(),
          updated_at: new Date(),
        })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      if (stored.numUpdatedRows !== 1n) return { action: 'none' } // another instance stored first: never send ours
      return { action: 'send', stored: 'new', signature: prepared.signature, wireTransaction: prepared.wireTransaction }
    }

    const signature = row.signature as string
    const status = await payoutStatus(platform.chain, signature, BigInt(row.last_valid_block_height as string))
    if (status === 'confirmed') {
      return { action: (await settle(trx, row)) ? 'confirmed' : 'none' }
    }
    if (status === 'failed') {
      // Landed with an error: the network fee is spent and no tokens moved, so the user gets the amount back.
      const updated = await trx
        .updateTable('withdrawals')
        .set({ status: 'failed', error: `the payout transaction ${signature} failed on chain`, updated_at: new Date() })
        .where('id', '=', row.id)
        .where('status', '=', 'sent')
        .where('signature', '=', signature)
        .executeTakeFirst()
      if (updated.numUpdatedRows !== 1n) return { action: 'none' }
      await refund(trx, row)
      return { action: 'failed' }
    }
    if (status === 'pending') {
      // It may still land: resending the same bytes is harmless (same signature), signing anything new is not.
      return { action: 'send', stored: false, signature, wireTransaction: row.wire_transaction as string }
    }
    // Expired: the old transaction provably can never land, so a new one may replace it.
    const prepared = await prepare(platform, asset, row)
    const replaced = await trx
      .updateTable('withdrawals')
      .set((eb) => ({
        signature: prepared.signature,
        wire_transaction: prepared.wireTransaction,
        last_valid_block_height: prepared.lastValidBlockHeight.toString(),
        attempts: eb('attempts', '+', 1),
        updated_at: new Date(),
      }))
      .where('id', '=', row.id)
      .where('status', '=', 'sent')
      .where('signature', '=', signature)
      .executeTakeFirst()
    if (replaced.numUpdatedRows !== 1n) return { action: 'none' }
    return {
      action: 'send',
      stored: 'renewed',
      signature: prepared.signature,
      wireTransaction: prepared.wireTransaction,
    }
  })

  if (decision.action === 'failed') pass.failed++
  if (decision.action === 'confirmed') {
    pass.confirmed++
    hooks.onStep?.('confirmed', id)
  }
  if (decision.action !== 'send') return
  if (decision.stored === 'renewed') pass.renewed++
  if (decision.stored) hooks.onStep?.('stored', id)
  const result = await sendPrepared(platform.chain, decision.wireTransaction)
  if (result.sent) {
    pass.sent++
    hooks.onStep?.('sent', id)
    return
  }
  // Refused by preflight (e.g. the hot wallet lacks the tokens): the transaction cannot land as it is. It stays
  // 'sent' until payoutStatus says expired, then a new one is prepared and tried: retried, never paid twice. The
  // cause (SOL for fees, the token account, the token balance) is diagnosed for the log and the operator console.
  pass.refused++
  const { asset, amount } = payment as { asset: AssetRow; amount: bigint }
  const problem = await diagnosePayout(platform, { ...asset, mint: asset.mint as string }, amount, result.error.message)
  pass.problem ??= problem
  await db
    .updateTable('withdrawals')
    .set({ error: problem.detail.slice(0, 1000), updated_at: new Date() })
    .where('id', '=', id)
    .where('signature', '=', decision.signature)
    .execute()
}
