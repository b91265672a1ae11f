import { API_BASE, ClientConfig, Code, envelope, HEALTH_PATHS, HealthLive, HealthReport } from '@solpledge/contract'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sendEnvelope } from '../../plugins/envelope.ts'
import { readiness } from './health.ts'

/** GET endpoints for operators and the web app's start-up: health and runtime configuration. */
export async function systemRoutes(app: FastifyInstance) {
  const started = Date.now()
  app.get(
    API_BASE + HEALTH_PATHS.live,
    {
      schema: {
        tags: ['system'],
        summary: 'Live: the process answers (no dependency is checked)',
        response: { 200: envelope(HealthLive) },
      },
    },
    async (request, reply) =>
      sendEnvelope(request, reply, Code.OK, 'common.success', {
        status: 'ok',
        uptime_seconds: Math.floor((Date.now() - started) / 1000),
      }),
  )
  const ready = async (request: FastifyRequest, reply: FastifyReply) => {
    const report = await readiness(app.db, app.config, app.platform)
    if (report.status === 'ok') return sendEnvelope(request, reply, Code.OK, 'common.success', report)
    const failing = (['database', 'chain'] as const).filter((part) => !report[part].ok).join(', ')
    return sendEnvelope(request, reply, Code.FAIL, 'error.notReady', report, { failing }, 503)
  }
  for (const path of [HEALTH_PATHS.ready, HEALTH_PATHS.health])
    app.get(
      API_BASE + path,
      {
        schema: {
          tags: ['system'],
          summary:
            'Ready: the database and the RPC answer (HTTP 503 and code 0 when not), with the jobs and the hot wallet ' +
            'reported beside them',
          response: { 200: envelope(HealthReport), 503: envelope(HealthReport) },
        },
      },
      ready,
    )
  // Browsers get the public RPC endpoints only: the server's own may carry a provider's API key.
  const clientConfig: ClientConfig = {
    cluster: app.config.cluster,
    testnet: app.config.cluster !== 'mainnet-beta',
    rpcUrl: app.config.publicRpcUrl,
    wsUrl: app.config.publicWsUrl,
    demoWallet: app.config.localChain,
    productSymbol: app.config.productSymbol,
  }
  app.get(
    `${API_BASE}/config`,
    {
      schema: {
        tags: ['system'],
        summary: 'Runtime configuration for the web app (cluster, public RPC endpoints, demo wallet)',
        response: { 200: envelope(ClientConfig) },
      },
    },
    // Read by every page load before the wallet layer starts: always revalidated, so a changed cluster shows at once.
    async (request, reply) =>
      sendEnvelope(request, reply.header('cache-control', 'no-cache'), Code.OK, 'common.success', clientConfig),
  )
}
