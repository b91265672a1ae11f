// The operator's request log (docs/operations.md, "Logs"): one JSON line per request once it is answered — method,
// route pattern, status, duration, request id, client IP (per TRUST_PROXY), and the user or console admin when the
// route knows them — at info, and at debug for the health checks a load balancer repeats every few seconds. Never a
// header, body or query string: those carry session tokens, signatures and keys. Each request's id is a UUIDv7 (time
// ordered, unique across instances and restarts), echoed in the X-Request-Id response header so a user's report can be
// found in the log.
import { randomUUID } from 'node:crypto'
import { API_BASE, HEALTH_PATHS } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, the version 7, then 74 random bits — those of a random UUID
 * (crypto.randomUUID draws from a cached pool: about 0.7 µs a call here, against 6 µs for randomBytes(16) per call).
 */
export function uuidv7(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0')
  // randomUUID(): xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx, its variant (y) already RFC 9562's; the version becomes 7.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`
}

const QUIET = new Set(Object.values(HEALTH_PATHS).map((path) => (API_BASE + path).toLowerCase()))

// Callback hooks, not async ones: on every request, a promise less each (measured: docs/benchmarks.md, bench/http).
export const requestLog = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done()
  })
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url
    const line = {
      method: request.method,
      route: route ?? 'unmatched',
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
      ...(request.user ? { user: request.user.id } : {}),
      ...(request.admin ? { admin: request.admin.address } : {}),
    }
    if (route && QUIET.has(route.toLowerCase())) request.log.debug(line, 'request')
    else request.log.info(line, 'request')
    done()
  })
})
