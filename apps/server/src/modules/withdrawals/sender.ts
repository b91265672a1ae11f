// The withdrawal sender (docs/money.md, the crash-safety rule), one pass of which the job jobs/withdrawal-sender.ts
// runs: it pays amount − fee from the hot wallet (prepare, store, send, decide only from payoutStatus), then settles
// locked → chain (what left) and locked → fees. The chain is asked first, with no transaction open; then the row is
// locked, re-checked against what was asked about, and changed. A row lock is never held across an RPC call (on
// PGlite every request would wait for it). Several instances share the work by a lease on each open withdrawal
// (`sender_lease_by`, `sender_lease_until`): it decides who works on it, never whether a payout may be made.

import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { sql, type Transaction } from 'kysely'
import {
  type PayoutStatus,
  type PreparedPayout,
  payoutStatuses,
  preparePayout,
  sendPrepared,
} from '../../chain/payout.ts'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'
import type { HotWalletProblem, Platform } from '../../platform.ts'
import { type AssetRow, requireAsset } from '../assets/index.ts'
import { systemAccount, transfer, userAccount } from '../ledger/index.ts'
import { diagnosePayout, recordHotWallet } from './hot-wallet.ts'
import { refund, type WithdrawalRow } from './service.ts'

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
  // The accounts found before the first transfer locks 'chain', the account every deposit and payout moves: from
  // there to the COMMIT only the two transfers run (docs/scaling.md "What saturates first").
  const chain = await systemAccount(trx, row.asset, 'chain')
  const fees = fee > 0n ? await systemAccount(trx, row.asset, 'fees') : null
  await transfer(trx, {
    debit: locked,
    credit: chain,
    asset: row.asset,
    amount: BigInt(row.amount) - fee,
    type: 'withdraw_pay',
    key: `withdraw:${row.id}:pay`,
    reference: `withdraw:${row.id}`,
  })
  if (fees !== null)
    await transfer(trx, {
      debit: locked,
      credit: fees,
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

export interface SenderOptions {
  onStep?: (step: SenderStep, withdrawalId: string) => void
  /**
   * The name the pass takes its leases under: one per instance (the job names its own, senderInstance). Passes of the
   * same name may work on the same withdrawals at once (each re-takes what the name holds), as every pass did before
   * the lease; the default is this process's name.
   */
  instance?: string
  /** How long a lease keeps other instances away from a withdrawal (LEASE_MS). */
  leaseMs?: number
}

/**
 * The name an instance's sender leases under: its host and port, the same after a restart, so that an instance the
 * supervisor restarts takes its share back at once instead of waiting for its leases to expire (two live instances
 * never share a host and port); without a port (0: any), the process and a random part. Were two instances ever to
 * share a name, they would both work on their common share, as every instance did before the lease: more work, never
 * a second payout.
 */
export function senderInstance(port = 0): string {
  return port > 0 ? `${hostname()}:${port}` : `${hostname()}:pid-${process.pid}:${randomUUID().slice(0, 8)}`
}

const PROCESS_INSTANCE = senderInstance()

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
 * How many withdrawals a pass takes at a time: a few, so that instances passing at once share a long list rather than
 * one taking it all; each take's sent ones are asked about in one getSignatureStatuses call.
 */
const TAKE = 20

/**
 * How long a lease lasts: longer than a take's work with room to spare (a payout to prepare is a few RPC calls and a
 * send; the sent ones of a take share two calls), and how long the withdrawals of an instance that died and was not
 * restarted under its name wait for another to take them. The instance renews it on each of its passes (every
 * SENDER_INTERVAL_MS), so a withdrawal stays with the instance that took it until it is settled; an instance whose
 * passes are further apart than this loses its share to the others. A take whose work outlasts it may be taken by
 * another instance meanwhile: both then work on it, as before the lease, and apply keeps one.
 */
export const LEASE_MS = 15_000

/**
 * One pass of the sender over the withdrawals in 'pending' or 'sent', oldest first (docs/money.md, the crash-safety
 * rule). It takes those that are free or already its own (`sender_lease_by` is this instance, or the lease expired)
 * in one statement (`for update skip locked`: two instances taking at once get different ones), leases them for
 * `leaseMs`, then works on them with no transaction open: each instance has its own share of the list, and another
 * takes a share over once its lease has expired (its instance died, hangs or stopped passing). Each one is then
 * changed under its row lock and only if it still is what the chain was asked about, and every status change is
 * conditional, so a stale view or an expired lease can never pay twice. A withdrawal that fails (RPC down, …) is reported in `errors`
 * and retried by the next pass.
 */
export async function processWithdrawals(
  db: Database,
  platform: Platform,
  options: SenderOptions = {},
): Promise<SenderPass> {
  const { instance = PROCESS_INSTANCE, leaseMs = LEASE_MS } = options
  const pass: SenderPass = {
    checked: 0,
    sent: 0,
    refused: 0,
    problem: null,
    hotWallet: 'unchanged',
    confirmed: 0,
    failed: 0,
    renewed: 0,
    errors: [],
  }
  const assets = new Map<string, Promise<AssetRow>>()
  let after: string | undefined
  while (pass.checked < BATCH) {
    const taken = await take(db, instance, leaseMs, after, Math.min(TAKE, BATCH - pass.checked))
    if (taken.length === 0) break
    pass.checked += taken.length
    after = taken[taken.length - 1]?.id
    // Every sent one of the take asked about at once (the finalized height first, then the statuses).
    const sent = taken.filter((row) => row.status === 'sent')
    let statuses: Map<string, PayoutStatus>
    try {
      const answers = await payoutStatuses(
        platform.chain,
        sent.map((row) => ({
          signature: row.signature as string,
          lastValidBlockHeight: BigInt(row.last_valid_block_height as string),
        })),
      )
      statuses = new Map(sent.map((row, i) => [row.id, answers[i] as PayoutStatus]))
    } catch (error) {
      // Nothing is known of them: they wait for the next pass; the pending ones go on.
      for (const { id } of sent) pass.errors.push({ id, error })
      statuses = new Map()
    }
    for (const row of taken) {
      if (row.status === 'sent' && !statuses.has(row.id)) continue
      try {
        let asset = assets.get(row.asset)
        if (!asset) {
          asset = requireAsset(db, row.asset)
          assets.set(row.asset, asset)
        }
        await processOne(db, platform, await asset, row, statuses.get(row.id), pass, options)
      } catch (error) {
        pass.errors.push({ id: row.id, error })
      }
    }
  }
  pass.hotWallet = recordHotWallet(platform.hotWalletStatus, pass)
  return pass
}

/**
 * Takes up to `limit` open withdrawals after `after` (by id) that are free — never leased, the lease expired — or
 * already this instance's, and leases them to it for `leaseMs` (the database's clock, the same for every instance).
 * One statement: the rows another instance is taking at this moment are skipped, and no lock outlives it.
 */
async function take(
  db: Database,
  instance: string,
  leaseMs: number,
  after: string | undefined,
  limit: number,
): Promise<WithdrawalRow[]> {
  const rows = await db
    .updateTable('withdrawals')
    .set({
      sender_lease_by: instance,
      sender_lease_until: sql<Date>`now() + cast(${leaseMs} as integer) * interval '1 millisecond'`,
    })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('withdrawals')
        .select('id')
        .where('status', 'in', ['pending', 'sent'])
        .$if(after !== undefined, (qb) => qb.where('id', '>', after as string))
        .where((w) =>
          w.or([
            w('sender_lease_until', 'is', null),
            w('sender_lease_until', '<', sql<Date>`now()`),
            w('sender_lease_by', '=', instance),
          ]),
        )
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute()
  // UPDATE … RETURNING gives no order: oldest first.
  return rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
}

/** What the chain says to do with a withdrawal as it was read (before any lock). */
type Plan =
  | { action: 'store'; prepared: PreparedPayout }
  | { action: 'renew'; prepared: PreparedPayout }
  | { action: 'settle' }
  | { action: 'fail' }
  | { action: 'resend' }

async function planFor(
  platform: Platform,
  asset: AssetRow,
  row: WithdrawalRow,
  status: PayoutStatus | undefined,
): Promise<Plan> {
  if (row.status === 'pending') return { action: 'store', prepared: await prepare(platform, asset, row) }
  if (status === undefined) throw new Error(`withdrawal ${row.id}: sent, and its payout was not asked about`)
  if (status === 'confirmed') return { action: 'settle' }
  // Landed with an error: the network fee is spent and no tokens moved, so the user gets the amount back.
  if (status === 'failed') return { action: 'fail' }
  // It may still land: resending the same bytes is harmless (same signature), signing anything new is not.
  if (status === 'pending') return { action: 'resend' }
  // Expired: the old transaction provably can never land, so a new one may replace it.
  return { action: 'renew', prepared: await prepare(platform, asset, row) }
}

type Decision = { action: 'none' | 'confirmed' | 'failed' } | { action: 'send'; stored: 'new' | 'renewed' | false }

/** Applies the plan under the row lock, if the row is still as read: 'sent' rows keep their signature meanwhile. */
async function apply(db: Database, seen: WithdrawalRow, plan: Exclude<Plan, { action: 'resend' }>): Promise<Decision> {
  return db.transaction().execute(async (trx): Promise<Decision> => {
    const row = await trx
      .selectFrom('withdrawals')
      .selectAll()
      .where('id', '=', seen.id)
      .where('status', '=', seen.status)
      .$if(seen.status === 'sent', (qb) => qb.where('signature', '=', seen.signature))
      .forUpdate()
      .skipLocked()
      .executeTakeFirst()
    if (!row) return { action: 'none' } // another instance holds it, or it moved on meanwhile
    const { id, signature } = row
    if (plan.action === 'store') {
      const { prepared } = plan
      const stored = await trx
        .updateTable('withdrawals')
        .set({
          status: 'sent',
          signature: prepared.signature,
          wire_transaction: prepared.wireTransaction,
          last_valid_block_height: prepared.lastValidBlockHeight.toString(),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      // Another instance stored first: never send ours.
      return stored.numUpdatedRows === 1n ? { action: 'send', stored: 'new' } : { action: 'none' }
    }
    if (plan.action === 'settle') return { action: (await settle(trx, row)) ? 'confirmed' : 'none' }
    if (plan.action === 'fail') {
      const updated = await trx
        .updateTable('withdrawals')
        .set({ status: 'failed', error: `the payout transaction ${signature} failed on chain`, updated_at: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'sent')
        .where('signature', '=', signature)
        .executeTakeFirst()
      if (updated.numUpdatedRows !== 1n) return { action: 'none' }
      await refund(trx, row)
      return { action: 'failed' }
    }
    // 'renew'
    const { prepared } = plan
    const replaced = await trx
      .updateTable('withdrawals')
      .set((eb) => ({
        signature: prepared.signature,
        wire_transaction: prepared.wireTransaction,
        last_valid_block_height: prepared.lastValidBlockHeight.toString(),
        attempts: eb('attempts', '+', 1),
        updated_at: new Date(),
      }))
      .where('id', '=', id)
      .where('status', '=', 'sent')
      .where('signature', '=', signature)
      .executeTakeFirst()
    return replaced.numUpdatedRows === 1n ? { action: 'send', stored: 'renewed' } : { action: 'none' }
  })
}

/**
 * One withdrawal as it was taken (`seen`; a sent one with what payoutStatus said of its payout): the plan, made with no
 * transaction open, then applied under the row lock.
 */
async function processOne(
  db: Database,
  platform: Platform,
  asset: AssetRow,
  seen: WithdrawalRow,
  status: PayoutStatus | undefined,
  pass: SenderPass,
  options: SenderOptions,
) {
  const { id } = seen
  // The RPC calls, with no transaction open.
  const plan = await planFor(platform, asset, seen, status)
  // A resend changes nothing stored: no lock needed. Otherwise the plan is applied under the row lock, and the bytes
  // sent only after the commit: they must be durable before they can be in flight, or a crash would forget a
  // transaction that may still land.
  const decision: Decision = plan.action === 'resend' ? { action: 'send', stored: false } : await apply(db, seen, plan)

  if (decision.action === 'failed') pass.failed++
  if (decision.action === 'confirmed') {
    pass.confirmed++
    options.onStep?.('confirmed', id)
  }
  if (decision.action !== 'send') return
  if (decision.stored === 'renewed') pass.renewed++
  if (decision.stored) options.onStep?.('stored', id)
  const { signature, wireTransaction } =
    plan.action === 'store' || plan.action === 'renew'
      ? plan.prepared
      : { signature: seen.signature as string, wireTransaction: seen.wire_transaction as string }
  const result = await sendPrepared(platform.chain, wireTransaction)
  if (result.sent) {
    pass.sent++
    options.onStep?.('sent', id)
    return
  }
  // Refused by preflight (e.g. the hot wallet lacks the tokens): the transaction cannot land as it is. It stays
  // 'sent' until payoutStatus says expired, then a new one is prepared and tried: retried, never paid twice. The
  // cause (SOL for fees, the token account, the token balance) is diagnosed for the log and the operator console.
  pass.refused++
  const problem = await diagnosePayout(
    platform,
    { ...asset, mint: asset.mint as string },
    payout(seen),
    result.error.message,
  )
  pass.problem ??= problem
  await db
    .updateTable('withdrawals')
    .set({ error: problem.detail.slice(0, 1000), updated_at: new Date() })
    .where('id', '=', id)
    .where('signature', '=', signature)
    .execute()
}
