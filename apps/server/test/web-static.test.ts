import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib'
import { API_BASE, WEB_PRELOADS_FILE } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, dbKind, type TestContext } from './helpers.ts'

/** A built web app as `vite build` leaves it: index.html and hashed assets, each with its .br and .gz beside it. */
function writeWebDist() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-web-dist-'))
  const files: Record<string, string> = {
    'index.html': `<!doctype html><html><head><title>solpledge</title></head><body>${'<div></div>'.repeat(200)}</body></html>`,
    'assets/index-AbC123.js': `console.log(${JSON.stringify('x'.repeat(4000))})`,
    'robots.txt': 'User-agent: *\nAllow: /\n',
    // The service worker and the manifest vite-plugin-pwa writes (apps/web/build/pwa.ts).
    'sw.js': `self.addEventListener('fetch', () => {})`,
    'manifest.webmanifest': '{"name":"solpledge","start_url":"/"}',
    // What the build writes for the server (apps/web/vite.config.ts, screenPreloads): never served itself.
    [WEB_PRELOADS_FILE]: JSON.stringify({
      screens: [
        { path: '/admin/*', scripts: ['assets/admin-app-1.js'], styles: ['assets/admin-app-1.css'] },
        { path: '/', scripts: ['assets/home-1.js', 'assets/shared-1.js'], styles: ['assets/home-1.css'] },
        { path: '/pledge', scripts: ['assets/pledge-screen-1.js', 'assets/shared-1.js'], styles: [] },
        { path: '/notice/detail/:id', scripts: ['assets/notice-detail-1.js'], styles: [] },
        { path: '*', scripts: ['assets/not-found-1.js'], styles: [] },
      ],
      languages: { en: { scripts: ['assets/en-1.js'], styles: [] }, zh: { scripts: ['assets/zh-1.js'], styles: [] } },
    }),
  }
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, text)
    if (name === 'robots.txt' || name === 'sw.js' || name.startsWith('.vite/')) continue
    fs.writeFileSync(`${file}.br`, brotliCompressSync(text))
    fs.writeFileSync(`${file}.gz`, gzipSync(text))
  }
  return { dir, files }
}

describe(`serving the web app (${dbKind})`, () => {
  let t: TestContext
  const web = writeWebDist()
  beforeAll(async () => {
    t = await createTestApp({ webDist: web.dir })
  })
  afterAll(async () => {
    await t.close()
    fs.rmSync(web.dir, { recursive: true, force: true })
  })

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers })

  it('sends the brotli file to browsers that take it, gzip to others, plain to the rest', async () => {
    const js = web.files['assets/index-AbC123.js']
    const br = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toMatch(/javascript/)
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(br.rawPayload.length).toBeLessThan(js?.length ?? 0)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js)

    const gz = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')

    const plain = await get('/assets/index-AbC123.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.payload).toBe(js)
  })

  it('caches hashed assets for a year and revalidates the page, client routes and other files', async () => {
    const asset = await get('/assets/index-AbC123.js', { 'accept-encoding': 'br' })
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    for (const url of ['/', '/pledge', '/notice/detail/1', '/assets/detail?coin=USDT', '/robots.txt']) {
      const res = await get(url, { 'accept-encoding': 'br' })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['cache-control'], url).toBe('no-cache')
    }
    const page = await get('/pledge', { 'accept-encoding': 'br' })
    expect(page.headers['content-encoding']).toBe('br')
    expect(page.headers['content-type']).toMatch(/text\/html/)
  })

  it('revalidates the service worker, the manifest and the page the service worker keeps on every use', async () => {
    const sw = await get('/sw.js')
    expect(sw.statusCode).toBe(200)
    expect(sw.headers['content-type']).toMatch(/javascript/)
    expect(sw.headers['cache-control']).toBe('no-cache')
    const manifest = await get('/manifest.webmanifest', { 'accept-encoding': 'br' })
    expect(manifest.headers['content-type']).toMatch(/application\/manifest\+json/)
    expect(manifest.headers['cache-control']).toBe('no-cache')
    // index.html as the build wrote it (the page served offline): no runtime config, so an offline start says so.
    const shell = await get('/index.html')
    expect(shell.statusCode).toBe(200)
    expect(shell.headers['cache-control']).toBe('no-cache')
    expect(shell.payload).toBe(web.files['index.html'])
  })

  it('answers 304 to a revalidation with the ETag it gave', async () => {
    const first = await get('/', { 'accept-encoding': 'br' })
    const etag = first.headers.etag
    expect(etag).toBeTruthy()
    const again = await get('/', { 'accept-encoding': 'br', 'if-none-match': String(etag) })
    expect(again.statusCode).toBe(304)
    expect(again.payload).toBe('')
  })

  it('writes the runtime config into the page, as GET /api/config gives it', async () => {
    const config = JSON.parse((await get(`${API_BASE}/config`)).payload).data
    const page = (await get('/pledge')).payload
    const json = /<script id="client-config" type="application\/json">(.*?)<\/script>/.exec(page)?.[1]
    expect(JSON.parse(json ?? 'null')).toEqual(config)
    // Before </head>, where the app reads it before its first render.
    expect(page.indexOf('client-config')).toBeLessThan(page.indexOf('</head>'))
  })

  it("names the requested screen's files and the browser language's strings in the page", async () => {
    const preloaded = async (url: string, language?: string) => {
      const res = await get(url, language ? { 'accept-language': language } : {})
      expect(res.statusCode, url).toBe(200)
      return [...res.payload.matchAll(/<link rel="(modulepreload|preload)"[^>]* href="\/([^"]+)">/g)].map(
        ([, rel, file]) => `${rel} ${file}`,
      )
    }
    expect(await preloaded('/pledge', 'en')).toEqual([
      'modulepreload assets/pledge-screen-1.js',
      'modulepreload assets/shared-1.js',
      'modulepreload assets/en-1.js',
    ])
    // The language as the app picks it with none stored: the browser's first supported one, else en.
    expect(await preloaded('/', 'zh-CN,zh;q=0.9,en;q=0.8')).toEqual([
      'modulepreload assets/home-1.js',
      'modulepreload assets/shared-1.js',
      'preload assets/home-1.css',
      'modulepreload assets/zh-1.js',
    ])
    expect(await preloaded('/', 'de-DE')).toContain('modulepreload assets/en-1.js')
    expect(await preloaded('/', 'de-DE')).not.toContain('modulepreload assets/zh-1.js')
    // Patterns as React Router matches them: a :name segment, case and a trailing slash ignored, the console, the rest.
    expect(await preloaded('/Notice/detail/42/', 'en')).toContain('modulepreload assets/notice-detail-1.js')
    expect(await preloaded('/admin/withdrawals', 'en')).toContain('modulepreload assets/admin-app-1.js')
    expect(await preloaded('/no/such/page', 'en')).toContain('modulepreload assets/not-found-1.js')
    // Each variant has its own ETag; caches keep them apart by language.
    const [pledge, home] = await Promise.all([get('/pledge'), get('/')])
    expect(pledge.headers.etag).not.toBe(home.headers.etag)
    expect(pledge.headers.vary).toMatch(/accept-language/i)
  })

  it('answers 404, not the page, for a file the build does not have', async () => {
    const res = await get('/assets/index-Old999.js', { 'accept-encoding': 'br' })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).not.toMatch(/text\/html/)
  })

  it('never serves what the build wrote for the server', async () => {
    const res = await get(`/${WEB_PRELOADS_FILE}`)
    expect(res.payload).not.toContain('languages')
  })

  it('does not let the runtime config be cached without revalidation', async () => {
    const res = await get(`${API_BASE}/config`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-cache')
  })
})
