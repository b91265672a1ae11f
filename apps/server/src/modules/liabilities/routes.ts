import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { snapshotNow } from './publish.ts'
import { inclusionProof, snapshotRoot } from './snapshot.ts'

/**
 * Proof of liabilities (docs/proof-of-liabilities-server.md#the-api): the latest root (public), the user's proof, and
 * the Operator-Token trigger (the console's is in modules/admin, audited).
 */
export async function liabilitiesRoutes(app: FastifyInstance) {
  defineRoute(app, api.liabilitiesRoot, {}, () => snapshotRoot(app.db))
  defineRoute(app, api.liabilitiesProof, {}, ({ user, body }) => inclusionProof(app.db, user.id, body.snapshot_id))
  // A snapshot per request: retries with the same Idempotency-Key replay the first answer.
  defineRoute(app, api.liabilitiesSnapshot, {}, () => snapshotNow(app.db, app.platform))
}
