import { getBusinessConfig } from '../modules/config/service.ts'
import { refreshRankings } from '../modules/rank/service.ts'
import type { JobContext } from './schedule.ts'

/**
 * Monthly ranking snapshots: looks every minute (sooner when RANK_INTERVAL_MS is shorter) and recomputes when the
 * newest is the configuration's rankIntervalSeconds old (0: never).
 */
export const rankSnapshots = ({ db }: JobContext) =>
  async function pass() {
    const { rankIntervalSeconds } = await getBusinessConfig(db)
    if (rankIntervalSeconds > 0) await refreshRankings(db, { intervalMs: rankIntervalSeconds * 1000 })
  }
