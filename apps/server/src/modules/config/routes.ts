import { api, Code } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { AppError } from '../../lib/app-error.ts'
import { defineRoute } from '../../lib/route.ts'
import { pledgeConfig } from './service.ts'

export async function configRoutes(app: FastifyInstance) {
  defineRoute(app, api.pledgeConfig, {}, ({ request }) => {
    const { product } = request.params as { product: string }
    // Only the platform token can be staked (the path names it, as SPEC §7 does).
    if (product.toUpperCase() !== app.config.productSymbol.toUpperCase())
      throw new AppError(Code.NOT_FOUND, 'common.notFound')
    return pledgeConfig(app.db, app.config.productSymbol)
  })
}
