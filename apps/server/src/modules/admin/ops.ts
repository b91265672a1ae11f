// Operations in the operator console: the jobs' status, from their own tables (settlement_runs, payment_intents,
// withdrawals) and the heartbeats every server instance records after each pass of a periodic job.
import type { HoldReason, HotWalletState, JobStatus, OpsHistory } from '@solpledge/contract'
import { sql } from 'kysely'
import { buildInfo } from '../../build-info.ts'
import type { Database } from '../../db/index.ts'
import { addDays, daysBetween, latestDueDay, utcDay } from '../../lib/day.ts'
import { JOBS } from '../../lib/jobs.ts'
import { listAssets } from '../assets/index.ts'
import { getBusinessConfig } from '../config/index.ts'
import { firstUnsettledDay } from '../settlement/index.ts'
import { activeAdmins, activeReviewers } from './four-eyes.ts'

const seconds = (from: Date | null | undefined, now: Date) =>
  from ? Math.max(0, Math.floor((now.getTime() - from.getTime()) / 1000)) : null

/** The jobs' status; `hotWallet` is the answering instance's hot-wallet gauge (modules/system/health.ts). */
export async function jobStatus(db: Database, hotWallet: HotWalletState, now = new Date()): Promise<JobStatus> {
  const config = await getBusinessConfig(db)
  const due = latestDueDay(now, config.settlementHourUtc)
  const [runs, next, intents, queue, beats, admins, reviewers] = await Promise.all([
    db
      .selectFrom('settlement_runs')
      .select([
        sql<string | null>`max(day) filter (where status = 'done')`.as('done'),
        sql<Date | null>`max(finished_at)`.as('finished_at'),
        sql<string | null>`min(day) filter (where status = 'running')`.as('running'),
      ])
      .executeTakeFirstOrThrow(),
    firstUnsettledDay(db, due),
    db
      .selectFrom('payment_intents')
      .select([sql<string>`count(*)`.as('n'), sql<Date | null>`min(created_at)`.as('oldest')])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('withdrawals')
      .select([
        sql<string>`count(*) filter (where status = 'review')`.as('review'),
        sql<string>`count(*) filter (where status = 'pending')`.as('pending'),
        sql<string>`count(*) filter (where status = 'sent')`.as('sent'),
        sql<string>`count(*) filter (where status = 'failed')`.as('failed'),
        sql<Date | null>`min(created_at) filter (where status in ('pending', 'sent'))`.as('oldest'),
      ])
      .executeTakeFirstOrThrow(),
    db.selectFrom('job_heartbeats').selectAll().orderBy('name').execute(),
    activeAdmins(db),
    activeReviewers(db),
  ])
  const held = await heldDay(db)
  const beat = (name: string) => beats.find((b) => b.name === name)
  const asDate = (value: Date | string | null) => (value === null ? null : new Date(value))
  return {
    now: now.toISOString(),
    release: { ...buildInfo(), node: process.versions.node },
    four_eyes: { admins, reviewers },
    settlement: {
      last_done_day: runs.done,
      last_finished_at: asDate(runs.finished_at)?.toISOString() ?? null,
      running_day: runs.running,
      latest_due_day: due,
      days_behind: Math.max(0, daysBetween(next, due) + 1),
      held,
    },
    watcher: {
      pending_intents: Number(intents.n),
      oldest_pending_at: asDate(intents.oldest)?.toISOString() ?? null,
      lag_seconds: seconds(beat(JOBS.watcher)?.last_ok_at, now),
    },
    sender: {
      review: Number(queue.review),
      pending: Number(queue.pending),
      sent: Number(queue.sent),
      failed: Number(queue.failed),
      oldest_open_at: asDate(queue.oldest)?.toISOString() ?? null,
      lag_seconds: seconds(beat(JOBS.sender)?.last_ok_at, now),
      hot_wallet: hotWallet,
    },
    jobs: beats.map((b) => ({
      name: b.name,
      last_run_at: b.last_run_at.toISOString(),
      last_ok_at: b.last_ok_at?.toISOString() ?? null,
      last_error: b.last_error,
    })),
  }
}

/** How many days the operations charts show. */
export const HISTORY_DAYS = 30

/**
 * The operations charts' figures for the last HISTORY_DAYS UTC days through today (OpsHistory in the contract): sums
 * per day and asset in base units, read from the books — fulfilled payment intents, confirmed withdrawals (net of the
 * fee: what left the hot wallet), settlement output records — the users registered by each day's end, and each day's
 * last proof-of-liabilities snapshot's holdings / liabilities.
 */
export async function opsHistory(db: Database, now = new Date()): Promise<OpsHistory> {
  const today = utcDay(now)
  const first = addDays(today, -(HISTORY_DAYS - 1))
  const days = Array.from({ length: HISTORY_DAYS }, (_, i) => addDays(first, i))
  const since = new Date(`${first}T00:00:00Z`)
  const dayOf = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`
  const [assets, deposits, withdrawals, payouts, before, joined, snapshots] = await Promise.all([
    listAssets(db),
    db
      .selectFrom('payment_intents')
      .select(['asset', dayOf('fulfilled_at').as('day'), sql<string>`sum(amount::numeric)::text`.as('sum')])
      .where('status', '=', 'fulfilled')
      .where('fulfilled_at', '>=', since)
      .groupBy(['asset', 'day'])
      .execute(),
    db
      .selectFrom('withdrawals')
      .select(['asset', dayOf('updated_at').as('day'), sql<string>`sum(amount - fee)::text`.as('sum')])
      .where('status', '=', 'confirmed')
      .where('updated_at', '>=', since)
      .groupBy(['asset', 'day'])
      .execute(),
    db
      .selectFrom('output_records')
      .select(['asset', sql<string>`day::text`.as('day'), sql<string>`sum(amount)::text`.as('sum')])
      .where('day', '>=', first)
      .groupBy(['asset', 'day'])
      .execute(),
    db
      .selectFrom('users')
      .select(sql<string>`count(*)`.as('n'))
      .where('created_at', '<', since)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select([dayOf('created_at').as('day'), sql<string>`count(*)`.as('n')])
      .where('created_at', '>=', since)
      .groupBy('day')
      .execute(),
    db
      .selectFrom('liability_snapshots')
      .select(['taken_at', 'assets', 'root_sums', 'reserves'])
      .where('taken_at', '>=', since)
      .orderBy('taken_at')
      .execute(),
  ])
  const series = (rows: { asset: string; day: string; sum: string }[], coin: string) =>
    days.map((day) => rows.find((r) => r.asset === coin && r.day === day)?.sum ?? '0')
  // Each day's last snapshot (they are ordered by time): its ratio per asset, on bigints, six places.
  const lastOfDay = new Map(snapshots.map((s) => [utcDay(new Date(s.taken_at)), s]))
  const ratio = (day: string, coin: string): string | null => {
    const snapshot = lastOfDay.get(day)
    const i = snapshot?.assets.findIndex((a) => a.coin === coin) ?? -1
    if (!snapshot || i < 0) return null
    const owed = BigInt(snapshot.root_sums[i] ?? '0')
    const held = BigInt(snapshot.reserves.find((r) => r.coin === coin)?.holdings ?? '0')
    if (owed === 0n) return null
    const micro = (held * 1_000_000n) / owed
    return `${micro / 1_000_000n}.${String(micro % 1_000_000n).padStart(6, '0')}`
  }
  let users = Number(before.n)
  return {
    days,
    users: days.map((day) => {
      users += Number(joined.find((j) => j.day === day)?.n ?? 0)
      return users
    }),
    assets: assets.map((asset) => ({
      coin: asset.code,
      decimals: asset.decimals,
      deposits: series(deposits, asset.code),
      withdrawals: series(withdrawals, asset.code),
      payouts: series(payouts, asset.code),
      solvency: days.map((day) => ratio(day, asset.code)),
    })),
  }
}

/** The day the circuit breaker holds (the first: the days after it wait), why, and a release waiting for approval. */
async function heldDay(db: Database): Promise<JobStatus['settlement']['held']> {
  const run = await db
    .selectFrom('settlement_runs')
    .select(['day', 'summary'])
    .where('status', '=', 'held')
    .orderBy('day')
    .limit(1)
    .executeTakeFirst()
  if (!run) return null
  const hold = (run.summary as { hold: { at: string; reasons: HoldReason[] } }).hold
  const release = await db
    .selectFrom('admin_changes')
    .select('id')
    .where('target', '=', `settlement:${run.day}`)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return { day: run.day, held_at: hold.at, reasons: hold.reasons, release_change: release?.id ?? null }
}
