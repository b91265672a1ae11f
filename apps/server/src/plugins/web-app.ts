import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import fastifyStatic from '@fastify/static'
import {
  CLIENT_CONFIG_ELEMENT,
  type ClientConfig,
  DEFAULT_UI_LANGUAGE,
  pickLanguage,
  WEB_PRELOADS_FILE,
  type WebFiles,
  type WebPreloads,
} from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { isApiPath } from './envelope.ts'

/**
 * The built web app (apps/web/dist): its files, and the single page for '/' and every client-side route.
 *
 * The page is index.html with, before </head>, the runtime config (a JSON <script>, which the CSP does not concern: it
 * never runs) and links that preload the chunks and stylesheets of the screen at the requested path and of the
 * strings in the browser's language (Accept-Language, as the app picks it when no language is stored). A phone then
 * fetches them together with the entry instead of after the entry has run, and the app asks for the screen's public
 * data without a request for the config first (docs/architecture.md, "First screen"). Each variant is made and
 * compressed once, on first use; like the files, which are routed as they are at start-up, a new build is served
 * from the next start.
 */
export async function webApp(app: FastifyInstance, options: { webDist: string; clientConfig: ClientConfig }) {
  const { webDist, clientConfig } = options
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    // index.html is the page below, never sent as it is on disk.
    index: false,
    // The build writes a .br and a .gz beside every compressible file (apps/web/vite.config.ts): the best one the
    // browser accepts is sent, with Vary: Accept-Encoding. ETags and Last-Modified stay on for revalidation.
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => reply.header('cache-control', webCacheControl(webDist, file)),
  })
  const html = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8')
  const preloadsFile = path.join(webDist, WEB_PRELOADS_FILE)
  const preloads: WebPreloads = fs.existsSync(preloadsFile)
    ? (JSON.parse(fs.readFileSync(preloadsFile, 'utf8')) as WebPreloads)
    : { screens: [], languages: {} }
  const pages = new Map<string, ReturnType<typeof appPage>>()
  app.get('/*', (request, reply) => {
    const { pathname } = new URL(request.url, 'http://page')
    // A file the build does not have (a page of an older build asking for its chunks) is not the page; the client
    // route /assets/detail is. Nor is any path under /api: the API answers those (405 or 404, plugins/envelope.ts).
    if (/^\/assets\/[^/]+\.\w+$/.test(pathname) || isApiPath(pathname)) return reply.callNotFound()
    const screen = matchScreen(preloads.screens, pathname)
    const language = pickLanguage(request.headers['accept-language'], DEFAULT_UI_LANGUAGE)
    const key = `${screen?.path}|${language}`
    let page = pages.get(key)
    if (!page) {
      page = appPage(html, clientConfig, [screen, preloads.languages[language]])
      pages.set(key, page)
    }
    reply
      .header('cache-control', 'no-cache')
      .header('etag', page.etag)
      .header('vary', 'accept-encoding, accept-language')
      .type('text/html; charset=utf-8')
    if (request.headers['if-none-match'] === page.etag) return reply.code(304).send()
    const encoding = acceptedEncoding(request.headers['accept-encoding'])
    if (encoding !== 'identity') reply.header('content-encoding', encoding)
    return reply.send(page.bodies[encoding])
  })
}

/**
 * index.html with the config as JSON ('<' escaped, so no value can close the element) and the preload links of what
 * `needs` names, before </head>; compressed.
 */
export function appPage(html: string, clientConfig: ClientConfig, needs: (WebFiles | undefined)[] = []) {
  const json = JSON.stringify(clientConfig).replaceAll('<', '\\u003c')
  const links = needs.flatMap((item) => [
    ...(item?.scripts ?? []).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    // crossorigin as the app's loader adds the stylesheet, so the preloaded response is the one it uses.
    ...(item?.styles ?? []).map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ])
  const added = `<script id="${CLIENT_CONFIG_ELEMENT}" type="application/json">${json}</script>${links.join('')}`
  // A page without a head (not one Vite writes) gets them at its end: the app's module runs after the whole page.
  const identity = Buffer.from(html.includes('</head>') ? html.replace('</head>', `${added}</head>`) : html + added)
  return {
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    bodies: {
      br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(identity, { level: 9 }),
      identity,
    },
  }
}

/**
 * The screen React Router shows at `pathname` among `screens`, whose patterns have static segments, `:name` segments
 * and a last `*` for whatever follows ('*' alone: any other path): case-insensitive, a trailing slash ignored; a static
 * segment ranks above a `:name` one, and both above what a `*` matches.
 */
export function matchScreen<T extends { path: string }>(screens: readonly T[], pathname: string): T | undefined {
  const segments = pathname.toLowerCase().split('/').filter(Boolean)
  let best: { screen: T; score: number } | undefined
  for (const screen of screens) {
    const pattern = screen.path.toLowerCase().split('/').filter(Boolean)
    const splat = pattern.at(-1) === '*'
    if (splat) pattern.pop()
    if (splat ? segments.length < pattern.length : segments.length !== pattern.length) continue
    let score = splat ? 0 : 1
    const matches = pattern.every((part, index) => {
      if (part.startsWith(':')) return true
      score += 2
      return part === segments[index]
    })
    if (matches && (!best || score > best.score)) best = { screen, score }
  }
  return best?.screen
}

/** The best of brotli, gzip and none that an Accept-Encoding header allows (a q=0 entry refuses that coding). */
export function acceptedEncoding(header: string | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = new Set<string>()
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((item) => item.trim())
    const q = params.find((param) => param.startsWith('q='))
    if (name && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name)
  }
  if (accepted.has('br')) return 'br'
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip'
  return 'identity'
}

/**
 * Vite's content-hashed output under assets/ never changes under its name: cached for a year without revalidation.
 * Everything else (the page, robots.txt, banners) is revalidated on each use, so a deploy shows at once.
 */
export function webCacheControl(webDist: string, file: string) {
  const relative = path.relative(webDist, file).split(path.sep).join('/')
  return relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'
}
