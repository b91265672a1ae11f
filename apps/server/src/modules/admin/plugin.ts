import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { retryTransient } from '../../db/transient.ts'
import { type AdminCaller, requireAdmin } from './session.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator console caller on every route whose contract names an `admin` role (null elsewhere). */
    admin: AdminCaller | null
  }
}

/**
 * The operator console's role check (docs/admin.md): a route whose contract names an `admin` role answers -403
 * unless the Admin-Token header names a live admin session with at least that role — first of all, before the body
 * is read or validated, so nobody else learns anything. The handler reads the caller from `request.admin`.
 */
export const adminPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('admin', null)
  // On the routes that name a role only, added to each when it is registered: other routes run no hook for it.
  app.addHook('onRoute', (route) => {
    const role = route.config?.contract?.admin
    if (!role) return
    const check = async (request: FastifyRequest) => {
      request.admin = await retryTransient(() => requireAdmin(app.db, request, role))
    }
    route.onRequest = [check, ...[route.onRequest ?? []].flat()]
  })
})
