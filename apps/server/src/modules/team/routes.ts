import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { teamDetail, teamIndex, teamList } from './service.ts'

export async function teamRoutes(app: FastifyInstance) {
  defineRoute(app, api.teamIndex, {}, ({ user }) => teamIndex(app.db, user))
  defineRoute(app, api.teamList, {}, ({ user, body }) => teamList(app.db, user.id, body))
  defineRoute(app, api.teamDetail, {}, ({ user, body }) => teamDetail(app.db, user.id, body.address))
}
