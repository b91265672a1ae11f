import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { registerPurpose } from '../intents/index.ts'
import { nodePurpose } from './purpose.ts'
import { buyNode, myNodes, nodeLevels } from './service.ts'

export async function nodeRoutes(app: FastifyInstance) {
  registerPurpose('node', nodePurpose)
  defineRoute(app, api.nodeLevel, {}, () => nodeLevels(app.db, app.config.productSymbol))
  defineRoute(app, api.nodeBuy, { successKey: 'node.purchased' }, ({ user, body, commit }) =>
    buyNode(app.db, commit, user, body.level),
  )
  defineRoute(app, api.myNodes, {}, ({ user }) => myNodes(app.db, user.id))
}
