import fs from 'node:fs'
import path from 'node:path'
import rateLimit from '@fastify/rate-limit'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { API_BASE, MAX_BODY_BYTES } from '@solpledge/contract'
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions, LogController } from 'fastify'
import { buildInfo } from './build-info.ts'
import { type Config, trustProxyOption } from './config.ts'
import type { Database } from './db/index.ts'
import { settleOptions } from './jobs/settlement.ts'
import { RATE_LIMIT_WINDOW_MS, rateLimitError, rateLimitStore } from './lib/rate-limit.ts'
import { adminPlugin } from './modules/admin/plugin.ts'
import { adminRoutes } from './modules/admin/routes.ts'
import { assetsRoutes } from './modules/assets/routes.ts'
import { sessionPlugin } from './modules/auth/plugin.ts'
import { authRoutes } from './modules/auth/routes.ts'
import { campaignRoutes } from './modules/campaign/routes.ts'
import { financeRoutes } from './modules/finance/routes.ts'
import { publishFiguresAfterTrades } from './modules/home/live.ts'
import { homeRoutes } from './modules/home/routes.ts'
import { intentRoutes } from './modules/intents/routes.ts'
import { liabilitiesRoutes } from './modules/liabilities/routes.ts'
import { liveChannel } from './modules/live/channel.ts'
import { nodeRoutes } from './modules/node/routes.ts'
import { noticeRoutes } from './modules/notice/routes.ts'
import { pledgeRoutes } from './modules/pledge/routes.ts'
import { rankRoutes } from './modules/rank/routes.ts'
import { settlementRoutes } from './modules/settlement/routes.ts'
import { createMetrics, type Metrics } from './modules/system/metrics.ts'
import { clientConfigOf, systemRoutes } from './modules/system/routes.ts'
import { teamRoutes } from './modules/team/routes.ts'
import { TradeMarket } from './modules/trade/market.ts'
import { cacheValuations } from './modules/trade/price.ts'
import { tradeRoutes } from './modules/trade/routes.ts'
import { userRoutes } from './modules/user/routes.ts'
import { withdrawalRoutes } from './modules/withdrawals/routes.ts'
import type { Platform } from './platform.ts'
import { clientErrorHandler, envelopePlugin, frameworkErrors } from './plugins/envelope.ts'
import { requestLog, uuidv7 } from './plugins/request-log.ts'
import { securityHeaders, securityHeadersPlugin } from './plugins/security-headers.ts'
import { webApp } from './plugins/web-app.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Database
    config: Config
    platform: Platform
    /** The quick-trade market of the platform token in this process (modules/trade/market.ts). */
    trade: TradeMarket
    /** Prometheus metrics of this instance, served on their own listener (modules/system/metrics.ts). */
    metrics: Metrics
  }
}

export const SIWS_CHAIN_IDS: Record<string, string> = {
  'mainnet-beta': 'mainnet',
  mainnet: 'mainnet',
  devnet: 'devnet',
  testnet: 'testnet',
  localnet: 'localnet',
}

export interface BuildOptions {
  db: Database
  config: Config
  platform: Platform
  logger?: FastifyServerOptions['logger']
  /** The process's logger (server.ts), instead of `logger`: its start lines and the requests' in one stream. */
  loggerInstance?: FastifyBaseLogger
  /** The clock user sessions are opened, idle and expired by, in ms since the epoch (default Date.now). */
  now?: () => number
}

/** Builds the whole API (and the web app when built) without listening: tests drive it with app.inject. */
export async function buildApp({ db, config, platform, logger = false, loggerInstance, now = Date.now }: BuildOptions) {
  const app = Fastify({
    ...(loggerInstance ? { loggerInstance } : { logger }),
    // One line per request, written by plugins/request-log.ts, with an id of ours: a client's X-Request-Id is not
    // trusted (it could collide or forge another request's id).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => uuidv7(),
    requestIdHeader: false,
    bodyLimit: MAX_BODY_BYTES,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    // `x-unit`: the business configuration's annotation of each amount's asset and each rate (economics.ts), which
    // validation ignores.
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: true,
        allErrors: false,
        keywords: ['x-unit'],
      },
    },
    // TRUST_PROXY: the proxies whose X-Forwarded-For names the client (request.ip: rate limits, the audit log).
    trustProxy: trustProxyOption(config.trustProxy),
    // A request's headers must arrive within 10 s and the whole request within REQUEST_TIMEOUT_MS, or it is answered
    // 408 and closed (clientErrorHandler); Node looks for late requests every second.
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: Math.min(10_000, config.requestTimeoutMs),
      connectionsCheckingInterval: 1000,
    },
    clientErrorHandler,
    frameworkErrors,
  })
  app.decorate('db', db)
  app.decorate('config', config)
  app.decorate('platform', platform)
  app.decorate('trade', new TradeMarket(db, config.productSymbol))
  app.trade.onTraded = publishFiguresAfterTrades(db, app.trade, app.log)
  cacheValuations(db, config.valuationCacheMs)
  // Before the routes, so that every request is counted and logged.
  app.decorate('metrics', createMetrics(app))
  await app.register(requestLog)

  // First, so that every answer carries the security headers: API, web app, console, docs, uploads and 404s.
  await app.register(securityHeadersPlugin, securityHeaders(config))
  await app.register(envelopePlugin)
  // Limits are set per route by defineRoute (lib/route.ts): the login calls' shared by all instances, public reads'.
  await app.register(rateLimit, {
    global: false,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    store: rateLimitStore(db),
    errorResponseBuilder: rateLimitError,
    // A database that cannot count does not refuse the call (the call itself then fails on its own terms).
    skipOnError: true,
  })
  // The caller checks the contract asks for (request.user, request.admin).
  await app.register(sessionPlugin, {
    cacheMs: config.sessionCacheMs,
    idleMs: config.sessionIdleHours * 3_600_000,
    now,
  })
  await app.register(adminPlugin)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'solpledge API',
        version: buildInfo().version,
        description:
          'Every call is POST under /api with a JSON body and answers HTTP 200 with {code, msg, key, data}: code 1 ' +
          'is success, 0 a refusal, 2 not bound, -1 invalid input, -2 not found, -102 rate limited, -406 unreadable ' +
          'request, -403 session invalid. msg is in the accept-language of the request (default zh). Paths match ' +
          'case-insensitively. Every path under /api answers this envelope, also with another HTTP status: 429 for ' +
          'a call past its rate limit (code -102, with Retry-After: login calls and public reads are limited per ' +
          'client address and minute), 405 for a method the path does not take (code -406, with Allow), 404 for an ' +
          'unknown path (code -406), 408 for a request whose headers and body did not arrive in time (code -406, ' +
          'the connection is closed), 500 for a fault of the server (code 0). Calls that move money or money state ' +
          'take an optional Idempotency-Key header (IETF httpapi draft): the same key from the same caller with the ' +
          'same body answers the first answer again, byte for byte, with Idempotent-Replayed: true, and does nothing ' +
          'twice, also when the repeats arrive at once; ' +
          'the key with another body is refused (code -1), as is a key that is not 1–255 visible ASCII characters. ' +
          'Keys are per caller and kept at least 24 h (docs/money.md).',
      },
      components: {
        securitySchemes: {
          userToken: { type: 'apiKey', in: 'header', name: 'User-Token' },
          userAddress: { type: 'apiKey', in: 'header', name: 'User-Address' },
          operatorToken: { type: 'apiKey', in: 'header', name: 'Operator-Token' },
          adminToken: { type: 'apiKey', in: 'header', name: 'Admin-Token' },
        },
      },
    },
  })
  await app.register(swaggerUi, { routePrefix: `${API_BASE}/docs` })
  // Before the routes: the WebSocket plugin must see every route registered after it.
  await liveChannel(app, config.live)

  const login = {
    domains: config.publicUrls.map((url) => new URL(url).host),
    chainId: SIWS_CHAIN_IDS[config.cluster] ?? config.cluster,
    sessionTtlHours: config.sessionTtlHours,
    now,
  }
  await app.register(authRoutes, { login, rateLimitPerMinute: config.loginRateLimit })
  await app.register(userRoutes)
  await app.register(assetsRoutes)
  await app.register(nodeRoutes)
  await app.register(pledgeRoutes)
  await app.register(financeRoutes)
  await app.register(noticeRoutes)
  await app.register(campaignRoutes)
  await app.register(teamRoutes)
  await app.register(rankRoutes)
  await app.register(homeRoutes)
  await app.register(intentRoutes)
  await app.register(withdrawalRoutes)
  await app.register(settlementRoutes, { settle: settleOptions(db, config, platform) })
  await app.register(liabilitiesRoutes)
  await app.register(tradeRoutes)
  await app.register(systemRoutes)
  await app.register(adminRoutes, {
    login: { ...login, adminSessionTtlHours: config.adminSessionTtlHours, localBootstrap: platform.localChain },
    rateLimitPerMinute: config.loginRateLimit,
    noticeHours: config.economicsNoticeHours,
  })

  const webDist = config.webDist && path.resolve(config.webDist)
  if (webDist && fs.existsSync(path.join(webDist, 'index.html')))
    await webApp(app, { webDist, clientConfig: clientConfigOf(config) })
  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
