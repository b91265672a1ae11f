import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'

export async function userRoutes(app: FastifyInstance) {
  defineRoute(app, api.userIndex, {}, async ({ user }) => {
    const { sessionId: _, ...info } = user
    return info
  })
}
