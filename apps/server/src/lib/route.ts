import { timingSafeEqual } from 'node:crypto'
import {
  API_BASE,
  type BodyOf,
  Code,
  type DataOf,
  envelope,
  IDEMPOTENCY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type MessageKey,
  type RouteDef,
} from '@solpledge/contract'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { retryTransient } from '../db/transient.ts'
import { sendEnvelope } from '../plugins/envelope.ts'
import { AppError } from './app-error.ts'
import { claim, finish, parseKey, release, requestHash } from './idempotency.ts'

/** The request carries the operator secret (compared in constant time). */
function isOperator(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(String(request.headers['operator-token'] ?? ''))
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract route a route serves: the session and admin plugins check the caller it asks for. */
    contract?: RouteDef
  }
}

/** The Idempotency-Key each request of an idempotent route claimed, until its answer is stored (onSend). */
const claims = new WeakMap<FastifyRequest, { caller: string; key: string }>()

/** The Idempotency-Key header as OpenAPI describes it; the handler checks it (lib/idempotency.ts). */
const idempotencyHeaders = Type.Object({
  [IDEMPOTENCY_HEADER.toLowerCase()]: Type.Optional(
    Type.String({
      description:
        '1–255 visible ASCII characters, unique per user action (e.g. a UUID). The same key with the same body ' +
        'answers the first answer again (header Idempotent-Replayed: true) and does nothing twice; with another body ' +
        'it is refused. Kept at least 24 h, per caller. Optional.',
    }),
  ),
})

/** Names of the `:param` segments of a contract path. */
const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string)

export interface RouteContext<R extends RouteDef> {
  body: BodyOf<R>
  request: FastifyRequest
  /** The session's user (request.user); present on every route whose contract says `auth: true`. */
  user: R['auth'] extends true ? NonNullable<FastifyRequest['user']> : null
  /** The operator console caller (request.admin); present on every route whose contract names an `admin` role. */
  admin: [NonNullable<R['admin']>] extends [never] ? null : NonNullable<FastifyRequest['admin']>
}

/** A success message with values for its placeholders. */
export interface SuccessMessage {
  key: MessageKey
  params: Record<string, string | number>
}

export interface RouteOptions<R extends RouteDef = RouteDef> {
  /**
   * The success message (default 'common.success'), or a function choosing it (and its placeholders' values) from the
   * answer's data.
   */
  successKey?: MessageKey | ((data: DataOf<R>) => MessageKey | SuccessMessage)
  /** Per-IP rate limit for this route, calls per minute. */
  rateLimitPerMinute?: number
}

/** A multipart route's body as OpenAPI describes it: one file field. Fastify does not validate it (see below). */
const multipartBody = (field: string) => Type.Object({ [field]: Type.String({ format: 'binary' }) })

/**
 * Registers one contract route: POST under /api, the contract's body and response schemas, the caller check when
 * the contract says so (the Operator-Token here; a user session or an admin role by the plugins of modules/auth and
 * modules/admin, which read the route's `config.contract`: each answers before the handler runs), and the success
 * envelope. Handlers only return data or throw AppError. A multipart route's handler reads its file itself.
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
        ...(def.multipart
          ? { body: multipartBody(def.multipart), consumes: ['multipart/form-data'] }
          : { body: def.body }),
        ...(pathParams(def.path).length
          ? {
              params: Type.Object(
                Object.fromEntries(pathParams(def.path).map((name) => [name, Type.String({ maxLength: 64 })])),
              ),
            }
          : {}),
        ...(def.idempotent ? { headers: idempotencyHeaders } : {}),
        response: {
          200: def.idempotent
            ? {
                ...envelope(def.data),
                headers: {
                  [IDEMPOTENT_REPLAYED_HEADER]: Type.Literal('true', {
                    description: 'Present on an answer replayed for a repeated Idempotency-Key',
                  }),
                },
              }
            : envelope(def.data),
        },
        ...(def.auth ? { security: [{ userToken: [], userAddress: [] }] } : {}),
        ...(def.operator ? { security: [{ operatorToken: [] }] } : {}),
        ...(def.admin ? { security: [{ adminToken: [] }] } : {}),
      },
      // The file of a multipart route is read (and checked) by its handler, after the role check.
      ...(def.multipart ? { validatorCompiler: () => () => true } : {}),
      // Stores the answer of a claimed Idempotency-Key exactly as sent; an unexpected fault frees the key instead.
      ...(def.idempotent
        ? {
            onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
              const claimed = claims.get(request)
              if (!claimed) return payload
              claims.delete(request)
              const { caller, key } = claimed
              try {
                if (reply.statusCode >= 500) await release(app.db, caller, key)
                else await finish(app.db, caller, key, reply.statusCode, String(payload))
              } catch (error) {
                // The answer still goes out; the key stays running and is taken over after TAKEOVER_MS.
                request.log.error({ err: error }, 'idempotency key not stored')
              }
              return payload
            },
          }
        : {}),
      config: {
        contract: def,
        ...(options.rateLimitPerMinute ? { rateLimit: { max: options.rateLimitPerMinute, timeWindow: 60_000 } } : {}),
      },
    },
    async (request, reply) => {
      if (def.operator && !isOperator(request, app.platform.operatorToken))
        throw new AppError(Code.FAIL, 'error.operatorOnly')
      const { user, admin } = request
      const header = request.headers[IDEMPOTENCY_HEADER.toLowerCase()]
      if (def.idempotent && header !== undefined) {
        const key = parseKey(header)
        const caller = user ? `user:${user.id}` : admin ? `admin:${admin.address}` : 'operator'
        const hash = requestHash(def.path, request.params, request.body)
        const first = await claim(app.db, caller, key, hash)
        if (!first.run)
          return reply
            .status(first.status as 200) // an envelope answer: 200 (faults are never stored)
            .header(IDEMPOTENT_REPLAYED_HEADER, 'true')
            .type('application/json; charset=utf-8')
            .send(first.response)
        claims.set(request, { caller, key })
      }
      const data = await retryTransient(() =>
        handler({ body: request.body, request, user, admin } as unknown as RouteContext<R>),
      )
      const chosen = typeof options.successKey === 'function' ? options.successKey(data) : options.successKey
      const message = typeof chosen === 'object' ? chosen : { key: chosen ?? 'common.success', params: undefined }
      return sendEnvelope(request, reply, Code.OK, message.key, data, message.params)
    },
  )
}
