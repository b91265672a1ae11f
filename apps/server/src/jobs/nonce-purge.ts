import { purgeIdempotencyKeys } from '../lib/idempotency.ts'
import { purgeExpiredNonces } from '../modules/auth/service.ts'
import type { JobContext } from './schedule.ts'

/** Forgets spent and expired sign-in nonces, and Idempotency-Keys past their retention (lib/idempotency.ts). */
export const noncePurge = ({ db }: JobContext) =>
  async function pass() {
    await purgeExpiredNonces(db)
    await purgeIdempotencyKeys(db)
  }
