// Operations in the operator console: the jobs' status, from their own tables (settlement_runs, payment_intents,
// withdrawals) and the heartbeats every server instance records after each pass of a periodic job.
import type { HoldReason, HotWalletState, JobStatus } from '@solpledge/contract'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { JOBS } from '../../jobs/schedule.ts'
import { daysBetween, latestDueDay } from '../../lib/day.ts'
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
