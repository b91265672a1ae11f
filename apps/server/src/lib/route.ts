import { timingSafeEqual } from 'node:crypto'
import { API_BASE, type BodyOf, Code, type DataOf, envelope, type MessageKey, type RouteDef } from '@solpledge/contract'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { requireSession, type SessionUser } from '../modules/auth/session.ts'
import { sendEnvelope } from '../plugins/envelope.ts'
import { AppError } from './app-error.ts'

/** The request carries the operator secret (compared in constant time). */
function isOperator(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(String(request.headers['operator-token'] ?? ''))
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** Names of the `:param` segments of a contract path. */
const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string)

export interface RouteContext<R extends RouteDef> {
  body: BodyOf<R>
  request: FastifyRequest
  /** The session's user; present on every route whose contract says `auth: true`. */
  user: R['auth'] extends true ? SessionUser : null
}

export interface RouteOptions<R extends RouteDef = RouteDef> {
  /** The success message (default 'common.success'), or a function choosing it from the answer's data. */
  successKey?: MessageKey | ((data: DataOf<R>) => MessageKey)
  /** Per-IP rate limit for this route, calls per minute. */
  rateLimitPerMinute?: number
}

/**
 * Registers one contract route: POST under /api, the contract's body and response schemas, the session check when
 * the contract says so, and the success envelope. Handlers only return data or throw AppError.
 */
export function defineRoute<R extends RouteDef>(
  app: FastifyInstance,
  def: R,
  options: RouteOptions<R>,
  handler: (ctx: RouteContext<R>) => Promise<DataOf<R>>,
) {
  app.post(
    API_BASE + def.path,
    {
      schema: {
        tags: [def.tag],
        summary: def.summary,
        body: def.body,
        ...(pathParams(def.path).length
          ? {
              params: Type.Object(
                Object.fromEntries(pathParams(def.path).map((name) => [name, Type.String({ maxLength: 64 })])),
              ),
            }
          : {}),
        response: { 200: envelope(def.data) },
        ...(def.auth ? { security: [{ userToken: [], userAddress: [] }] } : {}),
        ...(def.operator ? { security: [{ operatorToken: [] }] } : {}),
      },
      ...(options.rateLimitPerMinute
        ? { config: { rateLimit: { max: options.rateLimitPerMinute, timeWindow: 60_000 } } }
        : {}),
    },
    async (request, reply) => {
      if (def.operator && !isOperator(request, app.platform.operatorToken))
        throw new AppError(Code.FAIL, 'error.operatorOnly')
      const user = def.auth ? await requireSession(app.db, request, app.sessions) : null
      const data = await handler({ body: request.body, request, user } as unknown as RouteContext<R>)
      const key = typeof options.successKey === 'function' ? options.successKey(data) : options.successKey
      return sendEnvelope(request, reply, Code.OK, key ?? 'common.success', data)
    },
  )
}
