import { api, enumName, RANK_TYPES } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { getBusinessConfig } from '../config/index.ts'
import { ranking } from './service.ts'

export async function rankRoutes(app: FastifyInstance) {
  defineRoute(app, api.ranking, {}, async ({ user, body }) => {
    const { rankIntervalSeconds } = await getBusinessConfig(app.db)
    return ranking(app.db, user.id, enumName(RANK_TYPES, body.type), {
      intervalMs: rankIntervalSeconds * 1000,
      refresh: true,
    })
  })
}
