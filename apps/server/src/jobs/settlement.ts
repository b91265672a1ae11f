import type { Config } from '../config.ts'
import type { Database } from '../db/index.ts'
import type { JobContext } from '../lib/jobs.ts'
import { applyDueChanges } from '../modules/admin/index.ts'
import { reserves } from '../modules/assets/index.ts'
import { crashHook, type SettleOptions, settleDue } from '../modules/settlement/index.ts'
import { recordPriceDay } from '../modules/trade/index.ts'
import type { Platform } from '../platform.ts'

/**
 * How the server settles (the timer and the operator route alike): the circuit breaker reads the reserves on chain, and
 * before a day's run is created the configuration changes whose notice period ended by the day's due moment apply
 * (on the local chain, where future days may be settled, that is how a test moves time forward).
 */
export const settleOptions = (db: Database, config: Config, platform: Platform): SettleOptions => ({
  product: config.productSymbol,
  reserves: reserves(db, platform),
  beforeDay: async (due) => {
    await applyDueChanges(db, new Date(Math.max(Date.now(), due.getTime())))
  },
})

/**
 * Settles every due day not yet settled, in order (safe with several instances: docs/settlement.md), then records
 * today's prices for the history (one row a day, the day's latest: modules/trade/price.ts).
 */
export function settlement({ db, config, platform, log }: JobContext) {
  // SETTLEMENT_CRASH_AFTER_BATCHES is for the crash tests only, as CRASH_AT (docs/settlement.md).
  const onBatch = crashHook()
  const options = { ...settleOptions(db, config, platform), onBatch }
  return async function pass() {
    const days = await settleDue(db, options)
    for (const day of days) {
      if (day.status === 'held') log.warn(day, 'settlement day held by the circuit breaker: an admin must release it')
      else log.info(day, 'settlement day done')
    }
    await recordPriceDay(db, config.productSymbol)
  }
}
