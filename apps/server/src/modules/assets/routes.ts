import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { faucet, moneyLog, solvency, userWallet } from './service.ts'

export async function assetsRoutes(app: FastifyInstance) {
  defineRoute(app, api.userWallet, {}, async ({ user }) => ({
    list: await userWallet(app.db, user.id, app.config.productSymbol),
  }))
  defineRoute(app, api.moneyLog, {}, ({ user, body }) => moneyLog(app.db, user.id, body))
  defineRoute(app, api.faucet, { successKey: 'assets.faucetSuccess' }, async ({ user }) => ({
    signatures: await faucet(app.db, app.platform, user.address),
  }))
  defineRoute(app, api.solvency, {}, () => solvency(app.db, app.platform))
}
