import { purgeIdempotencyKeys } from '../lib/idempotency.ts'
import type { JobContext } from '../lib/jobs.ts'
import { purgeRateLimits } from '../lib/rate-limit.ts'
import { purgeExpiredNonces } from '../modules/auth/index.ts'
import { purgeOutbox } from '../modules/live/index.ts'

/**
 * Forgets spent and expired sign-in nonces, Idempotency-Keys past their retention (lib/idempotency.ts), the shared
 * rate-limit counters whose window has ended (lib/rate-limit.ts) and the live channel's outbox rows past their
 * retention (modules/live).
 */
export const noncePurge = ({ db, config }: JobContext) =>
  async function pass() {
    await purgeExpiredNonces(db)
    await purgeIdempotencyKeys(db)
    await purgeRateLimits(db)
    await purgeOutbox(db, config.live.retentionMinutes)
  }
