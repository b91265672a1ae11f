import {
  API_BASE,
  APP_KEY,
  type BodyOf,
  type ClientRoute,
  Code,
  type DataOf,
  type Envelope,
  IDEMPOTENCY_HEADER,
  type MessageKey,
  SILENT_REJECT_CODES,
} from '@solpledge/contract/client'
import { newIdempotencyKey } from './idempotency.ts'
import { requestLanguage } from './language.ts'
import { clearSession, getToken, getWalletAddress } from './session.ts'
import { toast } from './toast.ts'

/** Request timeout (docs/product.md#requests). */
export const REQUEST_TIMEOUT_MS = 50_000

/**
 * A refusal by the server: the envelope's code, its (already translated) msg as the message to show, and its message
 * key, which is what the app decides on.
 */
export class ApiError extends Error {
  readonly code: number
  readonly key: MessageKey

  constructor(code: number, msg: string, key: MessageKey) {
    super(msg)
    this.name = 'ApiError'
    this.code = code
    this.key = key
  }
}

/** Values of a route's `:name` path segments, e.g. { product: 'PLG' } for '/invest/invest_pledge/:product'. */
export type PathParams = Readonly<Record<string, string>>

/**
 * A contract path with its `:name` segments replaced by their (URL-encoded) values; a segment without a value is a
 * programming error.
 */
export function expandPath(path: string, params: PathParams = {}) {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined || value === '') throw new Error(`The path ${path} needs a value for :${name}`)
    return encodeURIComponent(value)
  })
}

/** The envelope a response carries, or null when its body is something else (a proxy's error page). */
async function envelopeOf(response: Response): Promise<Envelope | null> {
  try {
    const body = (await response.json()) as Partial<Envelope> | null
    return typeof body?.code === 'number' && typeof body.msg === 'string' ? (body as Envelope) : null
  } catch {
    return null
  }
}

export interface CallOptions {
  /** Values of the route's `:name` path segments. */
  params?: PathParams
  /**
   * The Idempotency-Key of the user action this call belongs to (see idempotency.ts): a retry of the action sends the
   * same one. Sent only on routes that accept one (`idempotent` in the contract); those get a fresh key per call
   * without it.
   */
  idempotencyKey?: string
  /**
   * The session to call with instead of the current one (a stored session checked before it is restored, or one
   * ended after its account left). Its -403 is only this call's refusal: the current session is not cleared.
   */
  session?: { token: string; address: string }
}

export interface ApiClientOptions {
  fetch: typeof fetch
  /** Headers sent on every request. */
  headers: () => Record<string, string>
  /** Code -403: the session is gone. */
  onSessionInvalid: (msg: string) => void
  timeoutMs?: number
}

export function createApiClient({
  fetch,
  headers,
  onSessionInvalid,
  timeoutMs = REQUEST_TIMEOUT_MS,
}: ApiClientOptions) {
  async function request<T>(
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
    session?: CallOptions['session'],
  ): Promise<Envelope<T>> {
    return envelopeFrom<T>(await fetchApi(path, body, extra, session), path, session)
  }

  function fetchApi(
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
    session?: CallOptions['session'],
  ) {
    const own: Record<string, string> = session ? { 'User-Token': session.token, 'User-Address': session.address } : {}
    const init: RequestInit = {
      method: 'GET',
      headers: { ...headers(), ...extra, ...own },
      signal: AbortSignal.timeout(timeoutMs),
    }
    if (body instanceof FormData) {
      // The browser writes the multipart content type with its boundary.
      init.method = 'POST'
      init.body = body
    } else if (body !== undefined) {
      init.method = 'POST'
      init.headers = { ...init.headers, 'content-type': 'application/json' }
      init.body = JSON.stringify(body)
    }
    return fetch(`${API_BASE}${path}`, init)
  }

  /** The envelope of a response: resolved on success, rejected (ApiError) on a refusal. */
  async function envelopeFrom<T>(
    response: Response,
    path: string,
    session?: CallOptions['session'],
  ): Promise<Envelope<T>> {
    if (!response.ok) {
      // A refusal with an HTTP status of its own (429 rate limited, 408, 404/405 unknown path or method) carries the
      // envelope: rejected with its message, as any refusal. A 5xx or a body that is not the envelope is no answer.
      const refusal = response.status < 500 ? await envelopeOf(response) : null
      if (!refusal) throw new Error(`HTTP ${response.status} on ${path}`)
      throw new ApiError(refusal.code, refusal.msg, refusal.key)
    }
    const envelope = (await response.json()) as Envelope<T>
    if (envelope.code === Code.SESSION_INVALID) {
      if (!session) onSessionInvalid(envelope.msg)
      throw new ApiError(envelope.code, envelope.msg, envelope.key)
    }
    if (SILENT_REJECT_CODES.includes(envelope.code)) throw new ApiError(envelope.code, envelope.msg, envelope.key)
    return envelope
  }

  /** POSTs a contract route; resolves the whole envelope (for callers that show the server's msg). */
  const send = <R extends ClientRoute>(
    route: R,
    body: BodyOf<R>,
    { params, idempotencyKey, session }: CallOptions = {},
  ) =>
    request<DataOf<R>>(
      expandPath(route.path, params),
      body,
      route.idempotent ? { [IDEMPOTENCY_HEADER]: idempotencyKey ?? newIdempotencyKey() } : {},
      session,
    )

  return {
    send,
    /** POSTs a contract route and resolves its data. */
    call: async <R extends ClientRoute>(route: R, body: BodyOf<R>, options?: CallOptions) =>
      (await send(route, body, options)).data,
    /**
     * POSTs one file as multipart/form-data under the route's file field ('video', as docs/product.md#paths-we-added
     * says) and resolves its data.
     */
    upload: async <R extends ClientRoute>(route: R, file: Blob, fileName: string) => {
      if (!route.multipart) throw new Error(`${route.path} takes no file`)
      const form = new FormData()
      form.append(route.multipart, file, fileName)
      return (await request<DataOf<R>>(route.path, form)).data
    },
    /**
     * POSTs a download route (`csv` in the contract) and resolves its file and the name the server gives it; a
     * refusal is rejected as any call's.
     */
    download: async <R extends ClientRoute>(route: R, body: BodyOf<R>) => {
      const response = await fetchApi(route.path, body)
      if (!response.ok || !response.headers.get('content-type')?.startsWith('text/csv')) {
        const { code, msg, key } = await envelopeFrom(response, route.path)
        throw new ApiError(code, msg, key)
      }
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv'
      return { file: await response.blob(), name }
    },
    /** GETs a path below the API base, e.g. '/config', and resolves its data. */
    get: async <T>(path: string) => (await request<T>(path)).data,
  }
}

function sessionHeaders() {
  const result: Record<string, string> = { 'app-key': APP_KEY, 'accept-language': requestLanguage() }
  const token = getToken()
  const address = getWalletAddress()
  if (token) result['User-Token'] = token
  if (address) result['User-Address'] = address
  return result
}

/** The app's one API client. */
export const { send, call, get, download } = createApiClient({
  fetch: (input, init) => globalThis.fetch(input, init),
  headers: sessionHeaders,
  onSessionInvalid: (msg) => {
    toast.error(msg)
    clearSession()
  },
})
