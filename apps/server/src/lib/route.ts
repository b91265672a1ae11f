import { timingSafeEqual } from 'node:crypto'
import { Readable } from 'node:stream'
import {
  API_BASE,
  type BodyOf,
  Code,
  type CsvCell,
  CsvFile,
  csvLine,
  type DataOf,
  envelope,
  IDEMPOTENCY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type MessageKey,
  type MessageParams,
  type RouteDef,
} from '@solpledge/contract'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { retryTransient } from '../db/transient.ts'
import { envelopeBody, sendEnvelope } from '../plugins/envelope.ts'
import { AppError } from './app-error.ts'
import { type AnswerIn, type Commit, dataOf, type Outcome, runCommit } from './commit.ts'
import { type Claimed, claim, faults, finish, parseKey, release, requestHash, storeAnswer } from './idempotency.ts'
import { inRoute } from './money-probe.ts'
import type { RateLimit } from './rate-limit.ts'

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

/** What a request claimed (an idempotent route's Idempotency-Key) and what became of its answer (read by onSend). */
interface Call {
  /** The Idempotency-Key this request owns. */
  claimed?: Claimed
  /** The answer stored in the transaction of the call's effects, which committed: the bytes to send. */
  stored?: string
  /**
   * An answer stored in a transaction that another part runs (answerIn; null without a key): the call's once the
   * handler succeeds, which the trade market's batch does only after it committed.
   */
  pending?: string | null
  /** The call's transaction committed. */
  committed?: boolean
}
const calls = new WeakMap<FastifyRequest, Call>()

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

/** The answer past a route's rate limit, as OpenAPI describes it. */
const rateLimited = {
  ...envelope(Type.Null()),
  description:
    'Rate limited: too many calls from this client address in the current minute (code -102, key error.rateLimited)',
  headers: {
    'retry-after': Type.Integer({ description: 'Seconds until the limit allows calls again' }),
    'x-ratelimit-limit': Type.Integer({ description: 'Calls allowed per minute' }),
    'x-ratelimit-remaining': Type.Integer(),
    'x-ratelimit-reset': Type.Integer({ description: 'Seconds until the window ends' }),
  },
}

/** Sends an answer's stored bytes (an envelope: status 200, since faults are never stored). */
const sendStored = (reply: FastifyReply, response: string, status = 200) =>
  reply
    .status(status as 200)
    .type('application/json; charset=utf-8')
    .send(response)

/** Names of the `:param` segments of a contract path. */
const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string)

export interface RouteContext<R extends RouteDef> {
  body: BodyOf<R>
  request: FastifyRequest
  /** The session's user (request.user); present on every route whose contract says `auth: true`. */
  user: R['auth'] extends true ? NonNullable<FastifyRequest['user']> : null
  /** The operator console caller (request.admin); present on every route whose contract names an `admin` role. */
  admin: [NonNullable<R['admin']>] extends [never] ? null : NonNullable<FastifyRequest['admin']>
  /**
   * Runs the call's effects in one transaction (once per call) and, for a request with an Idempotency-Key, stores
   * its answer in that transaction (docs/money.md): a route flagged idempotent makes every effect through it, or
   * through answerIn.
   */
  commit: Commit<DataOf<R>>
  /** Stores the answer of a request with an Idempotency-Key in a transaction another part runs (the trade batch). */
  answerIn: AnswerIn<DataOf<R>>
}

/** A success message with values for its placeholders. */
export interface SuccessMessage {
  key: MessageKey
  params: MessageParams
}

export interface RouteOptions<R extends RouteDef = RouteDef> {
  /**
   * The success message (default 'common.success'), or a function choosing it (and its placeholders' values) from the
   * answer's data.
   */
  successKey?: MessageKey | ((data: DataOf<R>) => MessageKey | SuccessMessage)
  /**
   * The route's rate limit per client address (lib/rate-limit.ts). Without one, a public route (no session, admin or
   * operator) gets the public-read limit (PUBLIC_RATE_LIMIT), counted by each instance.
   */
  rateLimit?: RateLimit
}

/** The credentials a route asks for, as OpenAPI describes them. */
const securityOf = (def: RouteDef) => ({
  ...(def.auth ? { security: [{ userToken: [], userAddress: [] }] } : {}),
  ...(def.operator ? { security: [{ operatorToken: [] }] } : {}),
  ...(def.admin ? { security: [{ adminToken: [] }] } : {}),
})

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
  const isPublic = !def.auth && !def.admin && !def.operator
  const limit = options.rateLimit ?? (isPublic ? { perMinute: app.config.publicRateLimit, shared: false } : undefined)
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
          ...(limit?.perMinute ? { 429: rateLimited } : {}),
        },
        ...securityOf(def),
      },
      // The file of a multipart route is read (and checked) by its handler, after the role check.
      ...(def.multipart ? { validatorCompiler: () => () => true } : {}),
      // Stores an answer that was not stored with the call's effects (a refusal, which made none) exactly as sent; an
      // unexpected fault frees the key instead, unless the transaction of its effects and answer committed.
      ...(def.idempotent
        ? {
            onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
              const call = calls.get(request)
              const claimed = call?.claimed
              if (!claimed || call?.stored !== undefined) return payload
              calls.delete(request)
              try {
                if (reply.statusCode >= 500) await release(app.db, claimed)
                else await finish(app.db, claimed, reply.statusCode, String(payload))
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
        ...(limit?.perMinute ? { rateLimit: { max: limit.perMinute }, rateLimitShared: limit.shared } : {}),
      },
    },
    async (request, reply) => {
      if (def.operator && !isOperator(request, app.platform.operatorToken))
        throw new AppError(Code.FAIL, 'error.operatorOnly')
      const { user, admin } = request
      const call: Call = {}
      const header = request.headers[IDEMPOTENCY_HEADER.toLowerCase()]
      if (def.idempotent && header !== undefined) {
        const key = parseKey(header)
        const caller = user ? `user:${user.id}` : admin ? `admin:${admin.address}` : 'operator'
        const hash = requestHash(def.path, request.params, request.body)
        const first = await claim(app.db, caller, key, hash)
        if (!first.run)
          return sendStored(reply, first.response, first.status).header(IDEMPOTENT_REPLAYED_HEADER, 'true')
        call.claimed = first
        calls.set(request, call)
      }
      const successOf = (data: DataOf<R>): { key: MessageKey; params?: SuccessMessage['params'] } => {
        const chosen = typeof options.successKey === 'function' ? options.successKey(data) : options.successKey
        return typeof chosen === 'object' ? chosen : { key: chosen ?? 'common.success' }
      }
      /** The answer's bytes as they are sent: success through the route's response schema, refusals as plain JSON. */
      const payloadOf = (outcome: Outcome<DataOf<R>>): string => {
        if ('refusal' in outcome)
          return JSON.stringify(
            envelopeBody(request, outcome.refusal.code, outcome.refusal.key, null, outcome.refusal.params),
          )
        const message = successOf(outcome.data)
        return String(reply.serialize(envelopeBody(request, Code.OK, message.key, outcome.data, message.params)))
      }
      const commit: Commit<DataOf<R>> = async (work) => {
        let payload: string | undefined
        const outcome = await runCommit(app.db, work, async (trx, outcome) => {
          if (!call.claimed) return
          payload = payloadOf(outcome)
          await storeAnswer(trx, call.claimed, 200, payload)
        })
        call.committed = true
        call.stored = payload
        return dataOf(outcome)
      }
      const answerIn: AnswerIn<DataOf<R>> = async (trx, data) => {
        call.pending = call.claimed ? payloadOf({ data }) : null
        if (call.claimed) await storeAnswer(trx, call.claimed, 200, call.pending as string)
      }
      const result = await retryTransient(() =>
        inRoute(def, () =>
          handler({ body: request.body, request, user, admin, commit, answerIn } as unknown as RouteContext<R>),
        ),
      ).then(
        (data) => ({ data }),
        (error: unknown) => ({ error }),
      )
      if ('data' in result && call.pending !== undefined) {
        call.committed = true
        call.stored = call.pending ?? undefined
      }
      if (call.committed) faults.afterCommit?.({ path: def.path, key: call.claimed?.key })
      // What was stored with the call's effects is the answer, also a refusal that kept them (RefusalAfterCommit).
      if (call.stored !== undefined) return sendStored(reply, call.stored)
      if ('error' in result) throw result.error
      if (call.claimed) request.log.error({ route: def.path }, 'idempotent call answered outside its transaction')
      const message = successOf(result.data)
      return sendEnvelope(request, reply, Code.OK, message.key, result.data, message.params)
    },
  )
}

/**
 * Downloads per client address and minute, counted over all instances: a file reads every row of a list, so a client
 * asking for many could load the database as much as thousands of list pages.
 */
export const EXPORTS_PER_MINUTE = 10

/** What a download route's handler sees: the same as any route's, without the money parts. */
export type CsvRouteContext<R extends RouteDef> = Pick<RouteContext<R>, 'body' | 'request' | 'user' | 'admin'>

/**
 * Registers one download route of the contract (`csv`): POST under /api with the contract's body schema and caller
 * check, as defineRoute; the answer is the CSV file, its header line then the handler's rows, streamed. The first row
 * is read before anything is sent, so that a refusal (a bad filter) is still the envelope; a fault later cuts the
 * file short (the connection closes without its last line) and is logged.
 */
export function defineCsvRoute<R extends RouteDef>(
  app: FastifyInstance,
  def: R,
  rows: (ctx: CsvRouteContext<R>) => AsyncIterable<readonly CsvCell[]>,
) {
  const { csv } = def
  if (!csv) throw new Error(`${def.path} is not a download route (no csv in its contract)`)
  const { filename, columns } = csv
  app.post(
    API_BASE + def.path,
    {
      schema: {
        tags: [def.tag],
        summary: def.summary,
        body: def.body,
        response: {
          200: {
            description: `The file ${filename}, columns: ${columns.join(', ')}`,
            content: { 'text/csv': { schema: CsvFile } },
          },
          429: rateLimited,
        },
        ...securityOf(def),
      },
      config: { contract: def, rateLimit: { max: EXPORTS_PER_MINUTE }, rateLimitShared: true },
    },
    async (request, reply) => {
      const { user, admin } = request
      const context = { body: request.body, request, user, admin } as unknown as CsvRouteContext<R>
      const iterator = rows(context)[Symbol.asyncIterator]()
      const first = await iterator.next()
      async function* file() {
        yield csvLine(columns)
        for (let next = first; !next.done; next = await iterator.next()) yield csvLine(next.value)
      }
      const stream = Readable.from(file())
      stream.on('error', (error) => request.log.error({ err: error, route: def.path }, 'CSV export cut short'))
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(stream)
    },
  )
}
