import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { ranking } from './service.ts'

export async function rankRoutes(app: FastifyInstance) {
  defineRoute(app, api.ranking, {}, ({ user, body }) =>
    ranking(app.db, user.id, body.type, { intervalMs: app.config.rankIntervalMs }),
  )
}
