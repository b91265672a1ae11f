import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { homeIndex, homePrice, homeTokens } from './service.ts'

export async function homeRoutes(app: FastifyInstance) {
  defineRoute(app, api.homePrice, {}, () => homePrice(app.db, app.config.productSymbol))
  defineRoute(app, api.homeTokens, {}, () => homeTokens(app.db))
  defineRoute(app, api.homeIndex, {}, ({ user }) => homeIndex(app.db, app.config.productSymbol, user.id))
}
