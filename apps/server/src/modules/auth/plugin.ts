import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { retryTransient } from '../../db/transient.ts'
import { cachedSession, requireSession, SessionCache, type SessionPolicy, type SessionUser } from './session.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Sessions checked recently (SESSION_CACHE_MS); revoking a user's sessions must call `forgetUser`. */
    sessions: SessionCache
    /** How sessions end (SESSION_IDLE_*): the live channel checks its connections' sessions by it too. */
    sessionPolicy: SessionPolicy
  }
  interface FastifyRequest {
    /** The session's user on every route whose contract says `auth: true` (null elsewhere), set before the handler. */
    user: SessionUser | null
  }
}

/**
 * The user session check (docs/architecture.md "Login and sessions"): a route whose contract says `auth: true` answers
 * -403 unless the User-Token and User-Address headers name a live session (not revoked, expired or idle), after its
 * body is validated and before its handler runs; the handler reads the caller from `request.user`.
 */
export const sessionPlugin = fp(async (app: FastifyInstance, options: { cacheMs: number } & SessionPolicy) => {
  const { cacheMs, ...policy } = options
  app.decorate('sessions', new SessionCache(cacheMs))
  app.decorate('sessionPolicy', policy)
  app.decorateRequest('user', null)
  // A callback hook: a session the cache answers costs no promise; the database is asked only when it does not, where
  // a connection that breaks under the check costs a retry, not a 500 (db/transient.ts).
  const check = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    let user: SessionUser | undefined
    try {
      user = cachedSession(request, app.sessions, policy)
    } catch (error) {
      return done(error as Error)
    }
    if (user) {
      request.user = user
      return done()
    }
    retryTransient(() => requireSession(app.db, request, app.sessions, policy)).then((found) => {
      request.user = found
      done()
    }, done)
  }
  // On the routes that ask for a session only, added to each when it is registered: other routes run no hook for it.
  app.addHook('onRoute', (route) => {
    if (route.config?.contract?.auth) route.preHandler = [check, ...[route.preHandler ?? []].flat()]
  })
})
