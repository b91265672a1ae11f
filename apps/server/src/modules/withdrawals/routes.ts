import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { listWithdrawals, requestWithdrawal } from './service.ts'

export async function withdrawalRoutes(app: FastifyInstance) {
  // A withdrawal at or above the asset's review threshold waits for an operator: its answer says so.
  defineRoute(
    app,
    api.withdraw,
    { successKey: (data) => (data.status === 'review' ? 'assets.withdrawUnderReview' : 'assets.withdrawRequested') },
    ({ user, body, commit }) => requestWithdrawal(app.db, commit, user, body),
  )
  defineRoute(app, api.withdrawList, {}, ({ user, body }) => listWithdrawals(app.db, user.id, body))
}
