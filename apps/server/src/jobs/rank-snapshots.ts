import type { JobContext } from '../lib/jobs.ts'
import { getBusinessConfig } from '../modules/config/index.ts'
import { refreshRankings } from '../modules/rank/index.ts'

/**
 * Monthly ranking snapshots: looks every minute (sooner when RANK_INTERVAL_MS is shorter) and recomputes when the
 * newest is the configuration's rankIntervalSeconds old (0: never).
 */
export const rankSnapshots = ({ db }: JobContext) =>
  async function pass() {
    const { rankIntervalSeconds } = await getBusinessConfig(db)
    if (rankIntervalSeconds > 0) await refreshRankings(db, { intervalMs: rankIntervalSeconds * 1000 })
  }
