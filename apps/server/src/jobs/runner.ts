// The one runner of the periodic jobs (docs/architecture.md): every job of JOBS on its interval (lib/jobs.ts), never
// two passes of a job at once in this process, failures logged and not fatal, each pass recorded in job_heartbeats
// for the operator console, the readiness check and the metrics. Several instances may run them: every job is safe so.

import { JOBS, type JobContext, type JobName, jobIntervals, recordJobRun } from '../lib/jobs.ts'
import { scheduledChanges } from './changes.ts'
import { intentWatcher } from './intent-watcher.ts'
import { liabilitiesSnapshot } from './liabilities-snapshot.ts'
import { noncePurge } from './nonce-purge.ts'
import { rankSnapshots } from './rank-snapshots.ts'
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

/**
 * Each job's pass as the runner runs it: never two at once in this process (a call while one runs does nothing),
 * a failure logged and not thrown, the pass recorded in job_heartbeats. Resolves to the pass's failure (undefined when
 * it succeeded or was skipped). The timers below call them; the simulator (apps/server/sim) calls them one at a time.
 */
export function jobPasses(context: JobContext): Record<JobName, () => Promise<unknown>> {
  const { db, log } = context
  const passes = {} as Record<JobName, () => Promise<unknown>>
  for (const [name, job] of Object.entries(JOB_PASSES) as [JobName, (typeof JOB_PASSES)[JobName]][]) {
    const pass = job(context)
    let running = false
    passes[name] = async () => {
      if (running) return undefined
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
      await recordJobRun(db, name, failure).catch((error) =>
        log.error({ err: error, job: name }, 'job heartbeat failed'),
      )
      return failure
    }
  }
  return passes
}

/** Starts every job whose interval is above 0; `stop` clears their timers (a running pass finishes on its own). */
export function startJobs(context: JobContext): { stop: () => void } {
  const intervals = jobIntervals(context.config)
  const passes = jobPasses(context)
  const timers = Object.entries(passes).flatMap(([name, pass]) => {
    const ms = intervals[name] ?? 0
    if (ms <= 0) return []
    const timer = setInterval(pass, ms)
    timer.unref()
    return [timer]
  })
  return { stop: () => timers.forEach(clearInterval) }
}
