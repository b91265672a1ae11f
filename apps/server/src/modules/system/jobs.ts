import type { Config } from '../../config.ts'
import { JOBS } from '../admin/ops.ts'
import { RANK_CHECK_MS } from '../rank/service.ts'

/** How often each periodic job runs in this configuration, in ms (0 = never): server.ts schedules them by it. */
export function jobIntervals(config: Config): Record<string, number> {
  return {
    [JOBS.nonces]: 10 * 60_000,
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
