// The one runner of the periodic jobs (docs/architecture.md): every job of JOBS on its interval (schedule.ts), never
// two passes of a job at once in this process, failures logged and not fatal, each pass recorded in job_heartbeats
// for the operator console, the readiness check and the metrics. Several instances may run them: every job is safe so.
import { scheduledChanges } from './changes.ts'
import { intentWatcher } from './intent-watcher.ts'
import { liabilitiesSnapshot } from './liabilities-snapshot.ts'
import { noncePurge } from './nonce-purge.ts'
import { rankSnapshots } from './rank-snapshots.ts'
import { JOBS, type JobContext, type JobName, jobIntervals, recordJobRun } from './schedule.ts'
import { settlement } from './settlement.ts'
import { withdrawalSender } from './withdrawal-sender.ts'

/** Each job: given the context once, it returns its pass (a job may keep state between passes in that closure). */
const JOB_PASSES: Record<JobName, (context: JobContext) => () => Promise<void>> = {
  [JOBS.nonces]: noncePurge,
  [JOBS.watcher]: intentWatcher,
  [JOBS.sender]: withdrawalSender,
  [JOBS.settlement]: settlement,
  [JOBS.rank]: rankSnapshots,
  [JOBS.liabilities]: liabilitiesSnapshot,
  [JOBS.changes]: scheduledChanges,
}

/** Starts every job whose interval is above 0; `stop` clears their timers (a running pass finishes on its own). */
export function startJobs(context: JobContext): { stop: () => void } {
  const intervals = jobIntervals(context.config)
  const timers = Object.entries(JOB_PASSES).flatMap(([name, job]) => {
    const ms = intervals[name] ?? 0
    return ms > 0 ? [every(context, name, ms, job(context))] : []
  })
  return { stop: () => timers.forEach(clearInterval) }
}

function every({ db, log }: JobContext, name: string, ms: number, pass: () => Promise<void>) {
  let running = false
  const timer = setInterval(async () => {
    if (running) return
    running = true
    let failure: unknown
    try {
      await pass()
    } catch (error) {
      failure = error ?? new Error('job failed')
      log.error({ err: error, job: name }, 'job failed')
    } finally {
      running = false
    }
    await recordJobRun(db, name, failure).catch((error) => log.error({ err: error, job: name }, 'job heartbeat failed'))
  }, ms)
  timer.unref()
  return timer
}
