import { crashHook, settleDue } from '../modules/settlement/service.ts'
import type { JobContext } from './schedule.ts'

/** Settles every due day not yet settled, in order (safe with several instances: docs/settlement.md). */
export function settlement({ db, config, log }: JobContext) {
  // SETTLEMENT_CRASH_AFTER_BATCHES is for the crash tests only, as CRASH_AT (docs/settlement.md).
  const onBatch = crashHook()
  return async function pass() {
    const days = await settleDue(db, { product: config.productSymbol, onBatch })
    for (const day of days) log.info(day, 'settlement day done')
  }
}
