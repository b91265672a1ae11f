// The operator's request log (docs/operations.md, "Logs"): one JSON line per request once it is answered — method,
// route pattern, status, duration, request id, client IP (per TRUST_PROXY), and the user or console admin when the
// route knows them — at info, and at debug for the health checks a load balancer repeats every few seconds. Never a
// header, body or query string: those carry session tokens, signatures and keys. Each request's id is a UUIDv7 (time
// ordered, unique across instances and restarts), echoed in the X-Request-Id response header so a user's report can be
// found in the log.
import { randomBytes } from 'node:crypto'
import { API_BASE, HEALTH_PATHS } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export const REQUEST_ID_HEADER = 'x-request-id'

/** A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. */
export function uuidv7(now = Date.now()): string {
  const bytes = randomBytes(16)
  bytes.writeUIntBE(now, 0, 6)
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const QUIET = new Set(Object.values(HEALTH_PATHS).map((path) => (API_BASE + path).toLowerCase()))

export const requestLog = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id)
  })
  app.addHook('onResponse', async (request, reply) => {
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
  })
})
