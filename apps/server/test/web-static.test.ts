import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib'
import { API_BASE } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, dbKind, type TestContext } from './helpers.ts'

/** A built web app as `vite build` leaves it: index.html and hashed assets, each with its .br and .gz beside it. */
function writeWebDist() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-web-dist-'))
  const files: Record<string, string> = {
    'index.html': `<!doctype html><html><head><title>solpledge</title></head><body>${'<div></div>'.repeat(200)}</body></html>`,
    'assets/index-AbC123.js': `console.log(${JSON.stringify('x'.repeat(4000))})`,
    'robots.txt': 'User-agent: *\nAllow: /\n',
  }
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, text)
    if (name === 'robots.txt') continue
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
    for (const url of ['/', '/pledge', '/notice/detail/1', '/robots.txt']) {
      const res = await get(url, { 'accept-encoding': 'br' })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['cache-control'], url).toBe('no-cache')
    }
    const page = await get('/pledge', { 'accept-encoding': 'br' })
    expect(page.headers['content-encoding']).toBe('br')
    expect(page.headers['content-type']).toMatch(/text\/html/)
  })

  it('answers 304 to a revalidation with the ETag it gave', async () => {
    const first = await get('/', { 'accept-encoding': 'br' })
    const etag = first.headers.etag
    expect(etag).toBeTruthy()
    const again = await get('/', { 'accept-encoding': 'br', 'if-none-match': String(etag) })
    expect(again.statusCode).toBe(304)
    expect(again.payload).toBe('')
  })

  it('does not let the runtime config be cached without revalidation', async () => {
    const res = await get(`${API_BASE}/config`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-cache')
  })
})
