// The server's RPC endpoints (SOLANA_RPC_URL, a comma-separated list): every call goes to the first healthy one, fails
// over on network errors, timeouts, HTTP 5xx and 429, and an endpoint that failed rests for an exponential backoff with
// jitter before it is tried again — so the primary gets its traffic back once it answers (docs/operations.md).
import {
  createDefaultRpcTransport,
  isSolanaError,
  type RpcTransport,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
} from '@solana/kit'
import { type OutageLog, Reachability } from '../lib/reachability.ts'

export interface BackoffOptions {
  /** The first rest after a failure, in ms; it doubles with every further failure in a row (default 500). */
  baseMs?: number
  /** The longest rest, in ms (default 30 s). */
  maxMs?: number
  /** Where an endpoint's outage and recovery are logged (lib/reachability.ts); none in tests that do not look. */
  log?: OutageLog
  /** A request with no answer after this long counts as a failure of its endpoint, in ms (default 15 s). */
  timeoutMs?: number
}

export interface EndpointOptions extends BackoffOptions {
  /**
   * The transport of each endpoint (default: kit's HTTP transport). The simulator (apps/server/sim) gives its
   * in-process chain with its faults here, below the failover, which runs as in production.
   */
  transport?: ((url: string) => RpcTransport) | undefined
}

export interface EndpointStatus {
  /** The endpoint's host only: its path and query may carry a provider's API key. */
  host: string
  /** False while it rests after a failure. */
  healthy: boolean
  /** Failures in a row (0 after an answer). */
  failures: number
  lastError: string | null
}

interface Endpoint {
  host: string
  transport: RpcTransport
  failures: number
  /** When it may be tried again (ms since the epoch); 0 when healthy. */
  retryAt: number
  lastError: string | null
  /** Logs when it stops answering and when it is back. */
  reach: Reachability
}

/** Whether another endpoint (or a later try) may answer where this one failed. */
function failsOver(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return false // the caller gave up: not the endpoint's fault
  if (isSolanaError(error, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
    const status = error.context.statusCode
    return status === 429 || status === 408 || status >= 500
  }
  return !isSolanaError(error) // fetch's network errors and our timeout; JSON-RPC errors never reach the transport
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason)
      },
      { once: true },
    )
  })

export class RpcEndpoints {
  private readonly endpoints: Endpoint[]
  private readonly baseMs: number
  private readonly maxMs: number
  private readonly timeoutMs: number

  constructor(urls: readonly string[], options: EndpointOptions = {}) {
    if (urls.length === 0) throw new Error('at least one RPC endpoint is needed')
    this.baseMs = options.baseMs ?? 500
    this.maxMs = options.maxMs ?? 30_000
    this.timeoutMs = options.timeoutMs ?? 15_000
    this.endpoints = urls.map((url) => ({
      host: new URL(url).host,
      transport: options.transport?.(url) ?? createDefaultRpcTransport({ url }),
      failures: 0,
      retryAt: 0,
      lastError: null,
      // The host only, never the URL: its path or query may carry an API key.
      reach: new Reachability(options.log, 'RPC endpoint', { host: new URL(url).host }),
    }))
  }

  /** The failover transport: give it to createSolanaRpcFromTransport. */
  readonly transport: RpcTransport = async <TResponse>(config: Parameters<RpcTransport>[0]): Promise<TResponse> => {
    let lastError: unknown
    // Each endpoint once and the first to come back again, at least three tries: a lone endpoint's 429/503 is retried.
    const attempts = Math.max(3, this.endpoints.length + 1)
    for (let attempt = 0; attempt < attempts; attempt++) {
      const endpoint = this.next()
      // A retry pauses (at most baseMs) while its endpoint rests; the first try never waits, so a call gives up after
      // `attempts` requests and at most (attempts − 1) × baseMs of pauses when every endpoint is down.
      const wait = attempt > 0 ? Math.min(endpoint.retryAt - Date.now(), this.baseMs) : 0
      if (wait > 0) await sleep(wait, config.signal)
      try {
        const signal = AbortSignal.any([AbortSignal.timeout(this.timeoutMs), ...(config.signal ? [config.signal] : [])])
        const response = await endpoint.transport<TResponse>({ ...config, signal })
        endpoint.failures = 0
        endpoint.retryAt = 0
        endpoint.reach.answered()
        return response
      } catch (error) {
        if (!failsOver(error, config.signal)) throw error
        this.failed(endpoint, error)
        lastError = error
      }
    }
    throw lastError
  }

  /** One transport per endpoint (in status() order), without failover: the readiness check asks each one itself. */
  get direct(): RpcTransport[] {
    return this.endpoints.map((endpoint) => endpoint.transport)
  }

  status(now = Date.now()): EndpointStatus[] {
    return this.endpoints.map((e) => ({
      host: e.host,
      healthy: e.retryAt <= now,
      failures: e.failures,
      lastError: e.lastError,
    }))
  }

  /** The first endpoint not resting, in the configured order; when all rest, the one that comes back first. */
  private next(): Endpoint {
    const now = Date.now()
    const ready = this.endpoints.find((e) => e.retryAt <= now)
    if (ready) return ready
    return this.endpoints.reduce((soonest, e) => (e.retryAt < soonest.retryAt ? e : soonest))
  }

  private failed(endpoint: Endpoint, error: unknown) {
    endpoint.failures++
    const ceiling = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(endpoint.failures - 1, 30))
    // "Equal jitter": half the backoff, plus a random part of the other half, so instances do not retry in step.
    endpoint.retryAt = Date.now() + ceiling / 2 + Math.random() * (ceiling / 2)
    const cause = (error as { cause?: { code?: string } }).cause?.code
    endpoint.lastError = `${(error as Error).message || String(error)}${cause ? ` (${cause})` : ''}`
    endpoint.reach.failed(endpoint.lastError)
  }
}
