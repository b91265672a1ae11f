import { api, Code, enumName, STAKE_STATUSES } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { AppError } from '../../lib/app-error.ts'
import { defineRoute } from '../../lib/route.ts'
import { rateHistory } from '../config/index.ts'
import { registerPurpose } from '../intents/index.ts'
import { priceHistory } from '../trade/index.ts'
import { myHistory } from './history.ts'
import { stakePurpose } from './purpose.ts'
import { fuel, minerDetail, minerList, pledgeConfig, stake, today } from './service.ts'

export async function pledgeRoutes(app: FastifyInstance) {
  registerPurpose('stake', stakePurpose)
  defineRoute(app, api.pledgeConfig, {}, ({ request }) => {
    const { product } = request.params as { product: string }
    // Only the platform token can be staked (the path names it: docs/product.md#spec-paths).
    if (product.toUpperCase() !== app.config.productSymbol.toUpperCase())
      throw new AppError(Code.NOT_FOUND, 'common.notFound')
    return pledgeConfig(app.db, app.config.productSymbol)
  })
  defineRoute(app, api.pledgeStake, { successKey: 'pledge.success' }, ({ user, body, commit }) =>
    stake(app.db, commit, app.config.productSymbol, user.id, body),
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
  defineRoute(app, api.myHistory, {}, ({ user, body }) => myHistory(app.db, user.id, body.days ?? 90))
  defineRoute(app, api.priceHistory, {}, ({ body }) => priceHistory(app.db, app.config.productSymbol, body.days ?? 90))
  defineRoute(app, api.rateHistory, {}, () => rateHistory(app.db))
}
