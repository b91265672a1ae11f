import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { API_BASE, api, Code, MAX_BODY_BYTES } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.ts'
import type { Config } from '../src/config.ts'
import { call, createTestApp, dbKind, seedRoot, type TestContext, TestWallet, testConfig } from './helpers.ts'

describe(`HTTP boundary (${dbKind})`, () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  const post = (url: string, payload: string | Buffer, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType, 'accept-language': 'en' } })
  const nonceCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('login_nonces')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('GET /api/config gives the web app its cluster, public endpoints and demo-wallet flag', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/config` })
    expect(res.json().data).toEqual({
      cluster: 'localnet',
      testnet: true,
      rpcUrl: 'http://127.0.0.1:8899',
      wsUrl: 'ws://127.0.0.1:8900',
      demoWallet: true,
      productSymbol: 'PLG',
    })
  })

  it('publishes the OpenAPI description with every contract route', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/docs/json` })
    const doc = res.json() as { paths: Record<string, { post?: unknown }> }
    for (const route of Object.values(api)) {
      const path = API_BASE + route.path.replace(/:(\w+)/g, '{$1}')
      expect(doc.paths[path]?.post, route.path).toBeDefined()
    }
    expect((await t.app.inject({ method: 'GET', url: `${API_BASE}/docs` })).statusCode).toBeLessThan(400)
  })

  it('docs/openapi.json is the description the server publishes (UPDATE_OPENAPI=1 rewrites it)', async () => {
    const file = new URL('../../../docs/openapi.json', import.meta.url)
    const current = `${JSON.stringify(t.app.swagger(), null, 2)}\n`
    if (process.env.UPDATE_OPENAPI === '1') fs.writeFileSync(file, current)
    expect(fs.readFileSync(file, 'utf8')).toBe(current)
  })

  it('matches paths case-insensitively', async () => {
    const root = await seedRoot(t.db)
    for (const url of ['/api/user/login/is_reg', '/API/User/Login/IS_REG', '/api/USER/login/Is_Reg']) {
      const res = await post(url, JSON.stringify({ address: root.address }))
      expect(res.json(), url).toEqual({ code: Code.OK, msg: 'Success', key: 'common.success', data: { is_reg: 1 } })
    }
  })

  it.each([
    ['malformed JSON', '{"address":', 'application/json', 'The request body is not valid JSON', 'error.malformedJson'],
    ['empty JSON body', '', 'application/json', 'The request body is not valid JSON', 'error.malformedJson'],
    [
      'prototype poisoning',
      '{"__proto__":{"x":1},"address":"a"}',
      'application/json',
      'The request body is not valid JSON',
      'error.malformedJson',
    ],
    [
      'oversize body',
      JSON.stringify({ address: 'a'.repeat(MAX_BODY_BYTES) }),
      'application/json',
      'The request body is too large',
      'error.bodyTooLarge',
    ],
    [
      'unsupported media type',
      '<x/>',
      'application/xml',
      'The request must be sent as JSON',
      'error.unsupportedMediaType',
    ],
  ])('%s → failure envelope, never a 500, nothing stored', async (_name, payload, type, msg, key) => {
    const before = await nonceCount()
    const res = await post(`${API_BASE}${api.nonce.path}`, payload, type)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ code: Code.BAD_REQUEST, msg, key, data: null })
    expect(await nonceCount()).toBe(before)
  })

  it('wrong types and unknown fields → invalid-input envelope, nothing stored', async () => {
    const before = await nonceCount()
    const address = new TestWallet().address
    // (An empty body is a valid nonce request: a wallet's signIn fills in the address.)
    for (const body of [{ address: 42 }, { address, admin: true }, [], { address: null }, { address: '' }]) {
      const res = await post(`${API_BASE}${api.nonce.path}`, JSON.stringify(body))
      expect(res.statusCode).toBe(200)
      expect(res.json().code, JSON.stringify(body)).toBe(Code.INVALID)
    }
    expect(await nonceCount()).toBe(before)
  })

  it("carries the message key beside msg: the same in every language, where msg is the request's language", async () => {
    const answer = async (lang: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `${API_BASE}${api.isReg.path}`,
          payload: '{}',
          headers: { 'content-type': 'application/json', 'accept-language': lang },
        })
      ).json()
    const [en, zh] = [await answer('en'), await answer('zh')]
    expect(en).toMatchObject({ code: Code.INVALID, key: 'error.invalidParams' })
    expect(zh).toMatchObject({ code: Code.INVALID, key: 'error.invalidParams' })
    expect(zh.msg).not.toBe(en.msg)
  })

  it('unknown API paths answer a failure envelope', async () => {
    const res = await post(`${API_BASE}/no/such/path`, '{}')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({
      code: Code.BAD_REQUEST,
      msg: 'Unknown API path',
      key: 'error.routeNotFound',
      data: null,
    })
  })

  it('rate-limits login calls per client', async () => {
    const limitedApp = await createTestApp({ loginRateLimit: 5 })
    try {
      const address = new TestWallet().address
      const codes: number[] = []
      for (let i = 0; i < 7; i++) codes.push((await call(limitedApp.app, api.isReg, { address })).code)
      expect(codes).toEqual([1, 1, 1, 1, 1, Code.RATE_LIMITED, Code.RATE_LIMITED])
      const limited = await call(limitedApp.app, api.isReg, { address })
      expect(limited).toMatchObject({ code: Code.RATE_LIMITED, msg: 'Too many requests, please try again in a moment' })
      // Calls outside login are not limited by it.
      expect((await call(limitedApp.app, api.userIndex, {})).code).toBe(Code.SESSION_INVALID)
    } finally {
      await limitedApp.close()
    }
  })

  describe('security headers', () => {
    // A built web app (index.html and a hashed asset) and a stored upload, in the DATA_DIR of the app that serves them.
    let dir: string
    const upload = `${'ab'.repeat(16)}.png`
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-headers-'))
      fs.mkdirSync(path.join(dir, 'dist/assets'), { recursive: true })
      fs.writeFileSync(
        path.join(dir, 'dist/index.html'),
        '<!doctype html><script type="module" src="/assets/i.js"></script>',
      )
      fs.writeFileSync(path.join(dir, 'dist/assets/index-Dn0q.js'), 'export {}')
      fs.mkdirSync(path.join(dir, 'uploads'))
      fs.writeFileSync(path.join(dir, 'uploads', upload), Buffer.from('89504e470d0a1a0a', 'hex'))
    })
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

    /** The app with this configuration, on the database and platform of the file's app. */
    const appWith = async (overrides: Partial<Config>) => {
      const app = await buildApp({ db: t.db, platform: t.platform, config: testConfig(overrides) })
      await app.ready()
      return app
    }
    const get = async (app: TestContext['app'], url: string, method: 'GET' | 'POST' = 'GET') => {
      const res = await app.inject({ method, url })
      return { status: res.statusCode, type: res.headers['content-type'], headers: res.headers }
    }
    const directives = (csp: unknown) =>
      Object.fromEntries(
        String(csp)
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([name = '', ...values]) => [name, values]),
      )

    it('every kind of answer carries them, with a CSP the web app runs under', async () => {
      const web = await appWith({ webDist: path.join(dir, 'dist'), dataDir: dir })
      try {
        const answers = {
          api: await get(web, `${API_BASE}/config`),
          index: await get(web, '/'),
          asset: await get(web, '/assets/index-Dn0q.js'),
          console: await get(web, '/admin'),
          route: await get(web, '/notice/detail/1'),
          apiNotFound: await get(web, `${API_BASE}/no/such/path`, 'POST'),
          notFound: await get(t.app, '/no/such/page'),
          docs: await get(web, `${API_BASE}/docs`),
          docsAsset: await get(web, `${API_BASE}/docs/static/swagger-ui-bundle.js`),
          upload: await get(web, `/uploads/${upload}`),
          uploadNotFound: await get(web, `/uploads/${'cd'.repeat(16)}.png`),
        }
        expect(answers.index.type).toMatch(/^text\/html/)
        expect(answers.console.type).toMatch(/^text\/html/)
        expect(answers.asset.type).toMatch(/javascript/)
        expect(answers.upload).toMatchObject({ status: 200, type: 'image/png' })
        expect(answers.docs.type).toMatch(/^text\/html/)
        for (const name of ['apiNotFound', 'notFound', 'uploadNotFound'] as const)
          expect(answers[name].status).toBe(404)
        for (const [name, { headers }] of Object.entries(answers)) {
          expect(headers['x-content-type-options'], name).toBe('nosniff')
          expect(headers['x-frame-options'], name).toBe('DENY')
          expect(headers['referrer-policy'], name).toBe('strict-origin-when-cross-origin')
          expect(headers['strict-transport-security'], name).toBeUndefined()
          expect(headers['cross-origin-embedder-policy'], name).toBeUndefined()
          expect(directives(headers['content-security-policy'])['frame-ancestors'], name).toEqual(["'none'"])
        }
        const csp = directives(answers.index.headers['content-security-policy'])
        expect(csp).toMatchObject({
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'script-src-attr': ["'none'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'object-src': ["'none'"],
          'base-uri': ["'self'"],
          'form-action': ["'self'"],
          // The API, then the RPC and WS endpoints of GET /api/config, then the Mobile Wallet Adapter's local socket.
          'connect-src': ["'self'", 'http://127.0.0.1:8899', 'ws://127.0.0.1:8900', 'ws://localhost:*'],
          'img-src': ["'self'", 'data:', 'https:'],
        })
        expect(csp['upgrade-insecure-requests']).toBeUndefined()
        // One policy for the app, its console, the API and the docs.
        for (const name of ['api', 'console', 'apiNotFound', 'docs'] as const)
          expect(answers[name].headers['content-security-policy'], name).toBe(
            answers.index.headers['content-security-policy'],
          )
        // Uploads load nothing at all.
        expect(answers.upload.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
      } finally {
        await web.close()
      }
    })

    it('HSTS and upgrade-insecure-requests only when a PUBLIC_URL is https; the public RPC and CSP_CONNECT_SRC origins are allowed', async () => {
      const secure = await appWith({
        publicUrls: ['https://stake.example.com'],
        // The server's own endpoints are never the browsers' business.
        rpcUrl: 'https://private-rpc.example.net/v1?api-key=secret',
        wsUrl: 'wss://private-rpc.example.net/v1?api-key=secret',
        publicRpcUrl: 'https://rpc.example.net/v1?api-key=public',
        publicWsUrl: 'wss://rpc.example.net/v1?api-key=public',
        cspConnectSrc: ['https://backup-rpc.example.org/path', 'https://rpc.example.net'],
      })
      try {
        const { headers } = await get(secure, `${API_BASE}/health`)
        expect(headers['strict-transport-security']).toBe('max-age=31536000')
        const csp = directives(headers['content-security-policy'])
        expect(csp['upgrade-insecure-requests']).toEqual([])
        // Origins only (never the API key of a path or query), each once.
        expect(csp['connect-src']).toEqual([
          "'self'",
          'https://rpc.example.net',
          'wss://rpc.example.net',
          'https://backup-rpc.example.org',
          'ws://localhost:*',
        ])
      } finally {
        await secure.close()
      }
    })
  })
})
