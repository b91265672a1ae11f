import { API_BASE, ClientConfig, Code, envelope } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { Type } from 'typebox'
import { sendEnvelope } from '../../plugins/envelope.ts'

const Health = Type.Object({ status: Type.Literal('ok'), database: Type.Literal('ok') })

/** GET endpoints for operators and the web app's start-up: health and runtime configuration. */
export async function systemRoutes(app: FastifyInstance, opts: { demoWallet: boolean }) {
  app.get(
    `${API_BASE}/health`,
    { schema: { tags: ['system'], summary: 'Ready when the database answers', response: { 200: envelope(Health) } } },
    async (request, reply) => {
      await sql`select 1`.execute(app.db)
      return sendEnvelope(request, reply, Code.OK, 'common.success', { status: 'ok', database: 'ok' })
    },
  )
  const clientConfig: ClientConfig = {
    cluster: app.config.cluster,
    testnet: app.config.cluster !== 'mainnet-beta',
    rpcUrl: app.config.rpcUrl,
    wsUrl: app.config.wsUrl,
    demoWallet: opts.demoWallet,
    productSymbol: app.config.productSymbol,
  }
  app.get(
    `${API_BASE}/config`,
    {
      schema: {
        tags: ['system'],
        summary: 'Runtime configuration for the web app (cluster, RPC endpoints, demo wallet)',
        response: { 200: envelope(ClientConfig) },
      },
    },
    // Read by every page load before the wallet layer starts: always revalidated, so a changed cluster shows at once.
    async (request, reply) =>
      sendEnvelope(request, reply.header('cache-control', 'no-cache'), Code.OK, 'common.success', clientConfig),
  )
}
