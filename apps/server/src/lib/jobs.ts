// The periodic jobs' names, schedule and heartbeats: the runner (jobs/runner.ts) reads them, and so do the operator
// console's job status (modules/admin/ops.ts), the readiness check (modules/system/health.ts) and the metrics. Base
// code: the modules read it without importing a job.
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.ts'
import type { Database } from '../db/index.ts'
import type { Platform } from '../platform.ts'

/** Job names as recorded in job_heartbeats. */
export const JOBS = {
  watcher: 'intent-watcher',
  sender: 'withdrawal-sender',
  settlement: 'settlement',
  rank: 'rank-snapshots',
  liabilities: 'liabilities-snapshot',
  nonces: 'nonce-purge',
  changes: 'scheduled-changes',
} as const

export type JobName = (typeof JOBS)[keyof typeof JOBS]

/** How often the ranking job looks whether a snapshot is due (at most): a new month or a fresh start waits no longer. */
export const RANK_CHECK_MS = 60_000

/** How often the scheduled changes whose notice period ended are looked for. */
export const CHANGES_INTERVAL_MS = 10_000

/** What every job is given once, when the runner starts it. */
export interface JobContext {
  db: Database
  config: Config
  platform: Platform
  log: FastifyBaseLogger
}

/** How often each periodic job runs in this configuration, in ms (0 = never): the runner schedules them by it. */
export function jobIntervals(config: Config): Record<string, number> {
  return {
    [JOBS.nonces]: 10 * 60_000,
    // A change whose notice period ended applies within this time (docs/economics.md).
    [JOBS.changes]: CHANGES_INTERVAL_MS,
    [JOBS.watcher]: config.watcherIntervalMs,
    [JOBS.sender]: config.senderIntervalMs,
    [JOBS.settlement]: config.settlementIntervalMs,
    // The proof-of-liabilities snapshot follows each settlement within one pass; the pass also publishes its root.
    [JOBS.liabilities]: config.settlementIntervalMs,
    // The ranking job looks every minute (sooner when RANK_INTERVAL_MS is shorter); the configuration decides when
    // it recomputes.
    [JOBS.rank]: Math.min(config.rankIntervalMs || RANK_CHECK_MS, RANK_CHECK_MS),
  }
}

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
