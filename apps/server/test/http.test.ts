import fs from 'node:fs'
import { API_BASE, api, Code, MAX_BODY_BYTES } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, createTestApp, dbKind, seedRoot, type TestContext, TestWallet } from './helpers.ts'

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
      expect(res.json(), url).toEqual({ code: Code.OK, msg: 'Success', data: { is_reg: 1 } })
    }
  })

  it.each([
    ['malformed JSON', '{"address":', 'application/json', 'The request body is not valid JSON'],
    ['empty JSON body', '', 'application/json', 'The request body is not valid JSON'],
    [
      'prototype poisoning',
      '{"__proto__":{"x":1},"address":"a"}',
      'application/json',
      'The request body is not valid JSON',
    ],
    [
      'oversize body',
      JSON.stringify({ address: 'a'.repeat(MAX_BODY_BYTES) }),
      'application/json',
      'The request body is too large',
    ],
    ['unsupported media type', '<x/>', 'application/xml', 'The request must be sent as JSON'],
  ])('%s → failure envelope, never a 500, nothing stored', async (_name, payload, type, msg) => {
    const before = await nonceCount()
    const res = await post(`${API_BASE}${api.nonce.path}`, payload, type)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ code: Code.BAD_REQUEST, msg, data: null })
    expect(await nonceCount()).toBe(before)
  })

  it('wrong types and unknown fields → invalid-input envelope, nothing stored', async () => {
    const before = await nonceCount()
    const address = new TestWallet().address
    for (const body of [{ address: 42 }, { address, admin: true }, [], { address: null }, {}]) {
      const res = await post(`${API_BASE}${api.nonce.path}`, JSON.stringify(body))
      expect(res.statusCode).toBe(200)
      expect(res.json().code, JSON.stringify(body)).toBe(Code.INVALID)
    }
    expect(await nonceCount()).toBe(before)
  })

  it('unknown API paths answer a failure envelope', async () => {
    const res = await post(`${API_BASE}/no/such/path`, '{}')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ code: Code.BAD_REQUEST, msg: 'Unknown API path', data: null })
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
})
