import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import { isRegistered, issueNonce, type LoginSettings, login } from './service.ts'
import { revokeSession } from './session.ts'

export async function authRoutes(app: FastifyInstance, opts: { login: LoginSettings; rateLimitPerMinute: number }) {
  // Counted over all instances: a client gets the limit once, however many instances answer it.
  const limited = { rateLimit: { perMinute: opts.rateLimitPerMinute, shared: true } }
  defineRoute(app, api.isReg, limited, async ({ body }) => ({ is_reg: await isRegistered(app.db, body.address) }))
  defineRoute(app, api.nonce, limited, ({ body, request }) =>
    issueNonce(app.db, opts.login, body.address, request.headers.host),
  )
  defineRoute(app, api.registerThird, { ...limited, successKey: 'auth.loginSuccess' }, async ({ body }) => {
    const data = await login(app.db, opts.login, body)
    if (body.end_other_sessions) app.sessions.forgetUser(data.id)
    return data
  })
  // The caller's own session ends: forgotten here at once, on other instances within their SESSION_CACHE_MS.
  defineRoute(app, api.logout, { successKey: 'auth.logoutSuccess' }, async ({ user }) => {
    await revokeSession(app.db, user.sessionId, (opts.login.now ?? Date.now)())
    app.sessions.forgetSession(user.sessionId)
    return {}
  })
}
