import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { singleFlight } from '../../lib/single-flight.ts'
import { snapshotNow } from './publish.ts'
import { inclusionProof, snapshotRoot } from './snapshot.ts'
import { solvency } from './solvency.ts'

/** How long a solvency report read from the chain is answered again (its `read_at` says when it was read). */
export const SOLVENCY_REUSE_MS = 5000

/**
 * Proof of liabilities (docs/proof-of-liabilities-server.md#the-api): the latest root (public), the user's proof, and
 * the Operator-Token trigger (the console's is in modules/admin, audited); the public solvency report.
 */
export async function liabilitiesRoutes(app: FastifyInstance) {
  defineRoute(app, api.liabilitiesRoot, {}, () => snapshotRoot(app.db))
  defineRoute(app, api.liabilitiesProof, {}, ({ user, body }) => inclusionProof(app.db, user.id, body.snapshot_id))
  // A snapshot per request: retries with the same Idempotency-Key replay the first answer.
  defineRoute(app, api.liabilitiesSnapshot, {}, () => snapshotNow(app.db, app.platform))
  // Public and read from the chain (the operator's RPC quota): one read per 5 s at most, whatever the request rate.
  defineRoute(
    app,
    api.solvency,
    {},
    singleFlight(SOLVENCY_REUSE_MS, () => solvency(app.db, app.platform)),
  )
}
