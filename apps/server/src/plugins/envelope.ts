import { type ServerResponse, STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import {
  API_BASE,
  Code,
  type Language,
  type MessageKey,
  type MessageParams,
  pickLanguage,
  TEXT_PATTERN,
  translate,
} from '@solpledge/contract'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from '../lib/app-error.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The language of this request's messages (accept-language, default zh). */
    lang: Language
  }
}

/** The envelope of an answer in the request's language: what sendEnvelope sends and an idempotent call stores. */
export const envelopeBody = (
  request: FastifyRequest,
  code: number,
  key: MessageKey,
  data: unknown = null,
  params?: MessageParams,
) => ({ code, msg: translate(request.lang, key, params), key, data })

export function sendEnvelope(
  request: FastifyRequest,
  reply: FastifyReply,
  code: number,
  key: MessageKey,
  data: unknown = null,
  params?: MessageParams,
  status = 200,
) {
  const body = envelopeBody(request, code, key, data, params)
  // Success bodies go through the route's response schema; failures (data null) are plain JSON.
  if (code !== Code.OK) reply.serializer(JSON.stringify).type('application/json; charset=utf-8')
  return reply.status(status).send(body)
}

/** Which envelope a framework error becomes: nothing a client sends may cause a 500. */
function classify(error: FastifyError): { code: number; key: MessageKey; params?: Record<string, string> } | null {
  if (error.validation) {
    const first = error.validation[0]
    const where = first?.instancePath || (error.validationContext ?? 'body')
    const params = first?.params as Record<string, unknown> | undefined
    const extra = params?.additionalProperty ? ` '${String(params.additionalProperty)}'` : ''
    return {
      code: Code.INVALID,
      key: 'error.invalidParams',
      params: { detail: `${where} ${first?.message ?? ''}${extra}`.trim() },
    }
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: Code.BAD_REQUEST, key: 'error.malformedJson' }
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: Code.BAD_REQUEST, key: 'error.bodyTooLarge' }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: Code.BAD_REQUEST, key: 'error.unsupportedMediaType' }
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return { code: Code.BAD_REQUEST, key: 'error.malformedJson' }
  return null
}

/**
 * Headers and path params must be one line of text (the contract's TEXT_PATTERN: no control characters, no lone
 * surrogates). Node's HTTP parser already refuses most such headers; app.inject, proxies and decoded params (%00) do not.
 */
const TEXT = new RegExp(TEXT_PATTERN, 'u')
const isText = (value: unknown): boolean =>
  typeof value === 'string' ? TEXT.test(value) : !Array.isArray(value) || value.every(isText)
const allText = (values: unknown) => {
  for (const name in values as Record<string, unknown>)
    if (!isText((values as Record<string, unknown>)[name])) return false
  return true
}

/**
 * The language of an accept-language header, remembered: clients send a handful of distinct headers, and parsing one
 * (split, sort) on every request cost more than the rest of the guard. At most 1000 headers of at most 200 characters
 * are kept (then forgotten at once); a longer one is parsed each time.
 */
const languages = new Map<string, Language>()
function languageOf(header: string | undefined): Language {
  if (header === undefined || header.length > 200) return pickLanguage(header)
  let lang = languages.get(header)
  if (lang === undefined) {
    if (languages.size >= 1000) languages.clear()
    lang = pickLanguage(header)
    languages.set(header, lang)
  }
  return lang
}

/**
 * Fastify's own answers to a URL it cannot route (a bad % escape, an overlong param): the envelope, as for an unknown
 * path. Passed as the `frameworkErrors` server option, which runs before any hook.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (_error, request, reply) => {
  request.lang = languageOf(request.headers['accept-language'])
  return sendEnvelope(request, reply, Code.BAD_REQUEST, 'error.routeNotFound', null, undefined, 404)
}

/** A path under the API base (`/api`, `/api/…`, in any case, as routes match): answered by the API, never the page. */
export const isApiPath = (url: string) => {
  const path = url.toLowerCase()
  return path === API_BASE || path.startsWith(`${API_BASE}/`) || path.startsWith(`${API_BASE}?`)
}

/** The methods a route may be declared with; a 405's Allow header lists those the path has. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const

/** The methods `url` has a route for, the web app's catch-all page (a `*` param) aside. */
function allowedMethods(app: FastifyInstance, url: string) {
  const path = url.split('?')[0] as string
  return METHODS.filter((method) => {
    try {
      const route = app.findRoute({ method, url: path })
      return route !== null && !('*' in (route.params as object))
    } catch {
      return false // a path the router cannot decode has no route
    }
  })
}

/**
 * What the HTTP server answers on its own, before Fastify has a request: a request whose headers and body did not
 * arrive within the request timeout (REQUEST_TIMEOUT_MS: 408, so a client trickling its body cannot hold a
 * connection), oversize headers (431) or unparsable HTTP (400). The envelope, in the request's language when its
 * headers were read, then the connection is closed. Passed as the `clientErrorHandler` server option.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const response = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage
  if (socket.writable && !response?.headersSent) {
    const [status, key]: [number, MessageKey] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'error.requestTimeout']
        : [error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400, 'error.badRequest']
    const lang = pickLanguage(response?.req?.headers['accept-language'])
    const body = JSON.stringify({ code: Code.BAD_REQUEST, msg: translate(lang, key), key, data: null })
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  this.log.debug({ err: error.message, code: error.code }, 'client error')
  socket.destroy()
}

/** Envelope answers for every outcome under /api (docs/product.md#envelope): success, refusals, bad input, faults. */
export const envelopePlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('lang', 'zh')
  // The request guard: before anything reads a header or a param, refuse those with control characters.
  // A callback hook that allocates nothing on a good request (measured: docs/benchmarks.md, bench/http).
  app.addHook('onRequest', (request, reply, done) => {
    request.lang = languageOf(request.headers['accept-language'])
    if (allText(request.headers) && allText(request.params)) return done()
    sendEnvelope(request, reply, Code.BAD_REQUEST, 'error.badRequest')
  })

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError)
      return sendEnvelope(request, reply, error.code, error.key, null, error.params, error.status)
    const known = classify(error)
    if (known) {
      request.log.info({ err: error.message, code: error.code }, 'request refused')
      return sendEnvelope(request, reply, known.code, known.key, null, known.params)
    }
    request.log.error({ err: error }, 'unexpected error')
    return sendEnvelope(request, reply, Code.FAIL, 'error.internal', null, undefined, 500)
  })

  // An API path answers the envelope whatever the method: 405 with Allow when the path has routes for other methods
  // (a GET on a POST path), else 404. Outside the API a GET is a missing file (plain text), anything else the envelope.
  app.setNotFoundHandler((request, reply) => {
    const api = isApiPath(request.url)
    if (api) {
      const allow = allowedMethods(app, request.url)
      if (allow.length > 0)
        return sendEnvelope(
          request,
          reply.header('allow', allow.join(', ')),
          Code.BAD_REQUEST,
          'error.methodNotAllowed',
          null,
          { method: request.method },
          405,
        )
    }
    if (api || request.method !== 'GET')
      return sendEnvelope(request, reply, Code.BAD_REQUEST, 'error.routeNotFound', null, undefined, 404)
    return reply.status(404).type('text/plain').send('Not found')
  })
})
