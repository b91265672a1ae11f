import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineCsvRoute, defineRoute } from '../../lib/route.ts'
import { singleFlight } from '../../lib/single-flight.ts'
import { faucet, moneyLog, moneyLogFile, solvency, userWallet } from './service.ts'

/** How long a solvency report read from the chain is answered again (its `read_at` says when it was read). */
export const SOLVENCY_REUSE_MS = 5000

export async function assetsRoutes(app: FastifyInstance) {
  defineRoute(app, api.userWallet, {}, async ({ user }) => ({
    list: await userWallet(app.db, user.id, app.config.productSymbol),
  }))
  defineRoute(app, api.moneyLog, {}, ({ user, body }) => moneyLog(app.db, user.id, body))
  defineCsvRoute(app, api.moneyLogCsv, ({ user, body }) => moneyLogFile(app.db, user.id, body))
  // The local chain's faucet pays on chain, outside any transaction: only its answer is committed (docs/money.md).
  defineRoute(app, api.faucet, { successKey: 'assets.faucetSuccess' }, async ({ user, commit }) => {
    const signatures = await faucet(app.db, app.platform, user.address)
    return commit(async () => ({ signatures }))
  })
  // Public and read from the chain (the operator's RPC quota): one read per 5 s at most, whatever the request rate.
  defineRoute(
    app,
    api.solvency,
    {},
    singleFlight(SOLVENCY_REUSE_MS, () => solvency(app.db, app.platform)),
  )
}
