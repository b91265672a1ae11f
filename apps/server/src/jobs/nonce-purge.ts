import { purgeIdempotencyKeys } from '../lib/idempotency.ts'
import { purgeExpiredNonces } from '../modules/auth/service.ts'
import { purgeOutbox } from '../modules/live/index.ts'
import type { JobContext } from './schedule.ts'

/**
 * Forgets spent and expired sign-in nonces, Idempotency-Keys past their retention (lib/idempotency.ts) and the live
 * channel's outbox rows past theirs (modules/live).
 */
export const noncePurge = ({ db, config }: JobContext) =>
  async function pass() {
    await purgeExpiredNonces(db)
    await purgeIdempotencyKeys(db)
    await purgeOutbox(db, config.live.retentionMinutes)
  }
