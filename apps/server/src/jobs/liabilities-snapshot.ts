import type { JobContext } from '../lib/jobs.ts'
import { liabilitiesJob } from '../modules/liabilities/index.ts'

/**
 * After each daily settlement, a proof-of-liabilities snapshot (outside the settlement's transactions), and the
 * publication of its root on chain (docs/proof-of-liabilities.md).
 */
export function liabilitiesSnapshot({ db, platform, log }: JobContext) {
  return async function pass() {
    const result = await liabilitiesJob(db, platform)
    if (result.taken || result.published.length > 0) log.info(result, 'proof of liabilities')
  }
}
