import { api, enumName, STAKE_STATUSES } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { fuel, minerDetail, minerList, stake, today } from './service.ts'

export async function pledgeRoutes(app: FastifyInstance) {
  defineRoute(app, api.pledgeStake, { successKey: 'pledge.success' }, ({ user, body }) =>
    stake(app.db, app.config.productSymbol, user.id, body),
  )
  defineRoute(app, api.minerList, {}, ({ user, body }) =>
    minerList(app.db, user.id, {
      status: enumName(STAKE_STATUSES, body.status),
      page: body.page ?? 1,
      limit: body.limit ?? 10,
    }),
  )
  defineRoute(app, api.minerDetail, {}, ({ user, body }) =>
    minerDetail(app.db, user.id, {
      id: body.id,
      page: body.page ?? 1,
      limit: body.limit ?? 10,
      parent_id: body.parent_id,
    }),
  )
  defineRoute(app, api.fuel, {}, ({ user }) => fuel(app.db, user.id))
  defineRoute(app, api.today, {}, ({ user }) => today(app.db, user.id))
}
