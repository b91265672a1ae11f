import type { ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet, { type HelmetOptions } from 'helmet'
import type { Config } from '../config.ts'

/**
 * The security headers of every response (API, web app, console, docs, uploads, 404s); docs/architecture.md
 * ("Security headers") explains each choice. helmet computes them once, at start: they depend on the configuration
 * only, so every response gets the same precomputed list, set in one callback hook (building them per request — the
 * CSP parsed and validated again each time — was the largest cost of the request path: docs/benchmarks.md).
 * A route may still replace one (uploads set a stricter CSP).
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: HelmetOptions) => {
  const headers = precomputed(options)
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.header(name, value)
    done()
  })
})

/** The headers helmet sets with these options, in its order, read from one run of its middleware. */
export function precomputed(options: HelmetOptions): Array<[string, string]> {
  const headers = new Map<string, string>()
  const response = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  } as unknown as ServerResponse
  let ran = false
  helmet(options)({} as never, response, (error?: unknown) => {
    if (error) throw error
    ran = true
  })
  if (!ran) throw new Error('helmet did not set its headers synchronously')
  return [...headers]
}

/**
 * The options of the security headers. connect-src names the RPC and WebSocket endpoints GET /api/config hands the web
 * app (SOLANA_PUBLIC_RPC_URL, SOLANA_PUBLIC_WS_URL; the server's own endpoints never reach browsers), the extra origins
 * of CSP_CONNECT_SRC, and ws://localhost:* — the Solana Mobile Wallet Adapter (added by the wallet adapter on Android
 * Chrome) talks to the wallet app through a local WebSocket.
 */
export function securityHeaders(config: Pick<Config, 'publicRpcUrl' | 'publicWsUrl' | 'publicUrls' | 'cspConnectSrc'>) {
  const https = config.publicUrls.some((url) => url.startsWith('https:'))
  const connect = [config.publicRpcUrl, config.publicWsUrl, ...config.cspConnectSrc].map((url) => new URL(url).origin)
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        // The Mobile Wallet Adapter's dialogs (Android Chrome) bring a <style> element and style attributes; inline
        // styles cannot run script. The app's own styles are files ('self'); React sets its style props via CSSOM.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Operators may point banner and notice images at https URLs (the notices tables allow a site path or https).
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...new Set(connect), 'ws://localhost:*'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // A wallet's sign-in popup keeps its opener; the page itself is not shared with other origins' windows.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // Off: the RPC endpoints and https banner images do not send Cross-Origin-Resource-Policy headers.
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
    // Origin only to other sites: RPC providers that allow-list by referrer still see the site.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only when the app is served over https; not for subdomains the operator may run elsewhere.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  } satisfies HelmetOptions
}
