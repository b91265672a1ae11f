import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { getUserById } from './queries.ts'

export async function userRoutes(app: FastifyInstance) {
  defineRoute(app, api.userIndex, {}, ({ user }) => getUserById(app.db, user.userId))
}
