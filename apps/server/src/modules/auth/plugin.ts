import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { requireSession, SessionCache, type SessionUser } from './session.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Sessions checked recently (SESSION_CACHE_MS); revoking a user's sessions must call `forgetUser`. */
    sessions: SessionCache
  }
  interface FastifyRequest {
    /** The session's user on every route whose contract says `auth: true` (null elsewhere), set before the handler. */
    user: SessionUser | null
  }
}

/**
 * The user session check (docs/architecture.md "Login and sessions"): a route whose contract says `auth: true` answers
 * -403 unless the User-Token and User-Address headers name a live session, after its body is validated and before
 * its handler runs; the handler reads the caller from `request.user`.
 */
export const sessionPlugin = fp(async (app: FastifyInstance, options: { cacheMs: number }) => {
  app.decorate('sessions', new SessionCache(options.cacheMs))
  app.decorateRequest('user', null)
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.contract?.auth) request.user = await requireSession(app.db, request, app.sessions)
  })
})
