import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { deposit, financeDetail, financeList, financeProducts, redeem } from './service.ts'

export async function financeRoutes(app: FastifyInstance) {
  defineRoute(app, api.financeProducts, {}, () => financeProducts(app.db))
  defineRoute(app, api.financeDeposit, { successKey: 'finance.depositSuccess' }, ({ user, body, commit }) =>
    deposit(app.db, commit, user.id, body),
  )
  defineRoute(app, api.financeList, {}, ({ user, body }) =>
    financeList(app.db, user.id, { status: body.status, page: body.page ?? 1, limit: body.limit ?? 10 }),
  )
  defineRoute(app, api.financeDetail, {}, ({ user, body }) =>
    financeDetail(app.db, user.id, { id: body.id, page: body.page ?? 1, limit: body.limit ?? 10 }),
  )
  defineRoute(app, api.financeRedeem, { successKey: 'finance.redeemed' }, ({ user, body, commit }) =>
    redeem(app.db, commit, user.id, body.id),
  )
}
