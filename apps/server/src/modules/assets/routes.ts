import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineCsvRoute, defineRoute } from '../../lib/route.ts'
import { faucet, moneyLog, moneyLogFile, userWallet } from './service.ts'

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
}
