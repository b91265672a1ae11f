import { purgeIdempotencyKeys } from '../lib/idempotency.ts'
import { purgeRateLimits } from '../lib/rate-limit.ts'
import { purgeExpiredNonces } from '../modules/auth/service.ts'
import type { JobContext } from './schedule.ts'

/**
 * Forgets spent and expired sign-in nonces, Idempotency-Keys past their retention (lib/idempotency.ts) and the shared
 * rate-limit counters whose window has ended (lib/rate-limit.ts).
 */
export const noncePurge = ({ db }: JobContext) =>
  async function pass() {
    await purgeExpiredNonces(db)
    await purgeIdempotencyKeys(db)
    await purgeRateLimits(db)
  }
