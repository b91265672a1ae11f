import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { createIntent, submitIntent, submitSuccessKey } from './service.ts'

export async function intentRoutes(app: FastifyInstance) {
  defineRoute(app, api.intentCreate, {}, ({ user, body }) =>
    createIntent(app.db, app.platform, app.config.productSymbol, user.id, body),
  )
  defineRoute(app, api.intentSubmit, { successKey: submitSuccessKey }, ({ user, body }) =>
    submitIntent(app.db, app.platform, user, body),
  )
}
