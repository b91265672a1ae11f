import { API_BASE, ClientConfig, Code, envelope, HEALTH_PATHS, HealthLive, HealthReport } from '@solpledge/contract'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { buildInfo } from '../../build-info.ts'
import type { Config } from '../../config.ts'
import { singleFlight } from '../../lib/single-flight.ts'
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
        ...buildInfo(),
      }),
  )
  // Public (proxies check it every few seconds): one check of the database and the RPC per second at most.
  const check = singleFlight(1000, () => readiness(app.db, app.config, app.platform))
  const ready = async (request: FastifyRequest, reply: FastifyReply) => {
    const report = await check()
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
  const clientConfig = clientConfigOf(app.config)
  app.get(
    `${API_BASE}/config`,
    {
      schema: {
        tags: ['system'],
        summary: 'Runtime configuration for the web app (cluster, public RPC endpoints, demo wallet)',
        response: { 200: envelope(ClientConfig) },
      },
    },
    // The page carries the same config (plugins/web-app.ts); this is for other clients and the development server.
    // Always revalidated, so a changed cluster shows at once.
    async (request, reply) =>
      sendEnvelope(request, reply.header('cache-control', 'no-cache'), Code.OK, 'common.success', clientConfig),
  )
}

/** What browsers are told (GET /api/config, and the page): the public RPC endpoints only, never the server's own, which
 * may carry a provider's API key. */
export function clientConfigOf(config: Config): ClientConfig {
  return {
    cluster: config.cluster,
    testnet: config.cluster !== 'mainnet-beta',
    rpcUrl: config.publicRpcUrl,
    wsUrl: config.publicWsUrl,
    demoWallet: config.localChain,
    productSymbol: config.productSymbol,
  }
}
