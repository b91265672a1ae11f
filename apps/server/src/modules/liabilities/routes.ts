import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { audit } from '../admin/audit.ts'
import { snapshotNow } from './publish.ts'
import { inclusionProof, snapshotRoot } from './snapshot.ts'

/** Proof of liabilities (issue 16): the latest root (public), the user's proof, and the operators' trigger. */
export async function liabilitiesRoutes(app: FastifyInstance) {
  defineRoute(app, api.liabilitiesRoot, {}, () => snapshotRoot(app.db))
  defineRoute(app, api.liabilitiesProof, {}, ({ user, body }) => inclusionProof(app.db, user.id, body.snapshot_id))
  // Both take a snapshot per request: retries with the same Idempotency-Key replay the first answer.
  defineRoute(app, api.liabilitiesSnapshot, {}, () => snapshotNow(app.db, app.platform))
  defineRoute(app, api.adminPolSnapshot, {}, async ({ admin }) => {
    const root = await snapshotNow(app.db, app.platform)
    await app.db.transaction().execute((trx) =>
      audit(trx, admin, 'liabilities.snapshot', `snapshot:${root.snapshot_id}`, {
        root: root.root,
        signature: root.signature,
      }),
    )
    return root
  })
}
