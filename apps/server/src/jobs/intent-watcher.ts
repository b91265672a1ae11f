import type { JobContext } from '../lib/jobs.ts'
import { watchIntents } from '../modules/intents/index.ts'

/** Fulfils the payment intents whose transfer landed and expires the rest past their time (docs/money.md). */
export const intentWatcher = ({ db, platform, log }: JobContext) =>
  async function pass() {
    const watched = await watchIntents(db, platform)
    if (watched.fulfilled || watched.expired) log.info(watched, 'payment intents watched')
  }
