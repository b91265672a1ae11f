import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { createIntent, submitIntent, submitSuccessKey } from './service.ts'

export async function intentRoutes(app: FastifyInstance) {
  defineRoute(app, api.intentCreate, {}, ({ user, body, commit }) =>
    createIntent(app.db, commit, app.platform, app.config.productSymbol, user.id, body),
  )
  defineRoute(app, api.intentSubmit, { successKey: submitSuccessKey }, ({ user, body, commit }) =>
    submitIntent(app.db, commit, app.platform, user, body),
  )
}
