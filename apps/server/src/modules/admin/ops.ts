// Operations in the operator console: the jobs' status, from their own tables (settlement_runs, payment_intents,
// withdrawals) and the heartbeats every server instance records after each pass of a periodic job.
import type { HotWalletState, JobStatus } from '@solpledge/contract'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { daysBetween, latestDueDay } from '../../lib/day.ts'
import { getBusinessConfig } from '../config/service.ts'
import { firstUnsettledDay } from '../settlement/service.ts'
import { activeAdmins, activeReviewers } from './four-eyes.ts'

/** Job names as recorded in job_heartbeats. */
export const JOBS = {
  watcher: 'intent-watcher',
  sender: 'withdrawal-sender',
  settlement: 'settlement',
  rank: 'rank-snapshots',
  nonces: 'nonce-purge',
  liabilities: 'liabilities-snapshot',
} as const

/** Records a pass of a periodic job: when it ran, and when it last succeeded or why it failed. */
export async function recordJobRun(db: Database, name: string, error?: unknown) {
  const now = new Date()
  const failed = error !== undefined
  const message = failed ? String((error as Error)?.message ?? error).slice(0, 1000) : null
  await db
    .insertInto('job_heartbeats')
    .values({ name, last_run_at: now, last_ok_at: failed ? null : now, last_error: message })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet(
          failed ? { last_run_at: now, last_error: message } : { last_run_at: now, last_ok_at: now, last_error: null },
        ),
    )
    .execute()
}

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
