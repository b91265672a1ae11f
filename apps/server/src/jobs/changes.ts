import type { JobContext } from '../lib/jobs.ts'
import { applyDueChanges } from '../modules/admin/index.ts'

/**
 * Applies the scheduled changes of the configuration and the asset settings whose notice period has ended
 * (docs/economics.md); safe on several instances (each change applies once, under its row lock).
 */
export function scheduledChanges({ db, log }: JobContext) {
  return async function pass() {
    for (const change of await applyDueChanges(db))
      log.info({ change: change.id, kind: change.kind, status: change.status }, 'scheduled change applied')
  }
}
