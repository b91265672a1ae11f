// The edge of the API (docs/operations.md, "TLS reverse proxy" and "Rate limits"): the client's address behind proxies
// (TRUST_PROXY), rate limits that answer HTTP 429 with Retry-After and are shared by the instances (login) or kept by
// each (public reads), the solvency report read from the chain once for any request rate, the request timeout that cuts
// a trickled body, and the envelope on every API path whatever the method (405 with Allow, 404), never the web page.
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { API_BASE, api, Code, type Envelope } from '@solpledge/contract'
import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.ts'
import { seedAssets } from '../src/modules/assets/seed.ts'
import { allowAdmin } from './admin.ts'
import { call, createTestApp, dbKind, member, seedRoot, type TestContext, TestWallet } from './helpers.ts'

const PROXY = '127.0.0.1'

/** A POST as it arrives from a proxy at `PROXY` that appended the client's address to what the client sent. */
const throughProxy = (t: TestContext, route: { path: string }, body: unknown, forwardedFor: string) =>
  t.app.inject({
    method: 'POST',
    url: API_BASE + route.path,
    payload: body as object,
    remoteAddress: PROXY,
    headers: { 'accept-language': 'en', 'x-forwarded-for': forwardedFor },
  })

/** A random address, as a client forging X-Forwarded-For would name. */
const forged = () => `10.${(Math.random() * 255) | 0}.${(Math.random() * 255) | 0}.${(Math.random() * 255) | 0}`

describe(`client addresses and login limits behind a proxy (${dbKind})`, () => {
  let t: TestContext
  beforeAll(async () => {
    // As docs/operations.md sets it up: one proxy in front (TRUST_PROXY=1), the default login limit.
    t = await createTestApp({ trustProxy: 1, loginRateLimit: 60 })
  })
  afterAll(() => t?.close())

  it('130 nonce requests with a forged X-Forwarded-For: 60 served, 70 answered 429 with Retry-After', async () => {
    const address = new TestWallet().address
    const answers = []
    for (let i = 0; i < 130; i++)
      answers.push(await throughProxy(t, api.nonce, { address }, `${forged()}, 198.51.100.7`))
    const served = answers.filter((r) => r.statusCode === 200 && r.json().code === Code.OK)
    const limited = answers.filter((r) => r.statusCode === 429)
    expect([served.length, limited.length]).toEqual([60, 70])
    const last = limited.at(-1)
    expect(last?.json()).toEqual({
      code: Code.RATE_LIMITED,
      msg: 'Too many requests, please try again in a moment',
      key: 'error.rateLimited',
      data: null,
    })
    expect(last?.headers['content-type']).toMatch(/^application\/json/)
    const retryAfter = Number(last?.headers['retry-after'])
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(last?.headers['x-ratelimit-limit']).toBe('60')
    // Another client behind the same proxy has its own count.
    expect((await throughProxy(t, api.nonce, { address }, `${forged()}, 198.51.100.8`)).statusCode).toBe(200)
  })

  it('the audit log records the address the proxy saw, not the one the client claimed', async () => {
    const wallet = await allowAdmin(t.db, 'admin')
    const nonce = await throughProxy(t, api.adminNonce, { address: wallet.address }, '203.0.113.66, 198.51.100.9')
    const message = nonce.json().data.message as string
    const res = await throughProxy(
      t,
      api.adminLogin,
      { address: wallet.address, sign: wallet.sign(message), message },
      '203.0.113.66, 198.51.100.9',
    )
    expect(res.json().code).toBe(Code.OK)
    const row = await t.db
      .selectFrom('admin_audit')
      .select('ip')
      .where('action', '=', 'admin.login')
      .where('actor', '=', wallet.address)
      .executeTakeFirstOrThrow()
    expect(row.ip).toBe('198.51.100.9')
  })
})

describe(`TRUST_PROXY as a list of proxy addresses (${dbKind})`, () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestApp({ trustProxy: ['127.0.0.1', '10.0.0.0/8'], loginRateLimit: 2 })
  })
  afterAll(() => t?.close())

  /** The address the login limit counted the call under. */
  const countedAs = async (remoteAddress: string, forwardedFor?: string) => {
    await t.db.deleteFrom('rate_limit_hits').execute()
    await t.app.inject({
      method: 'POST',
      url: API_BASE + api.isReg.path,
      payload: { address: new TestWallet().address },
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    })
    const rows = await t.db.selectFrom('rate_limit_hits').select('key').execute()
    return rows.map((row) => row.key.split(' ')[1])
  }

  it('believes X-Forwarded-For only from the listed proxies, read from the right', async () => {
    expect(await countedAs('127.0.0.1', '198.51.100.1')).toEqual(['198.51.100.1'])
    // A client's own entries before the proxies' are not believed past the first address that is not a proxy.
    expect(await countedAs('127.0.0.1', '203.0.113.1, 198.51.100.1, 10.1.2.3')).toEqual(['198.51.100.1'])
    // A client that reaches the server directly names nobody.
    expect(await countedAs('198.51.100.2', '203.0.113.2')).toEqual(['198.51.100.2'])
  })
})

describe(`login limits shared by the instances (${dbKind})`, () => {
  let t: TestContext
  let other: Awaited<ReturnType<typeof buildApp>>
  beforeAll(async () => {
    t = await createTestApp({ loginRateLimit: 60 })
    // A second instance: its own process state, the same database.
    other = await buildApp({ db: t.db, config: t.app.config, platform: t.platform })
  })
  afterAll(async () => {
    await other?.close()
    await t?.close()
  })

  it('a client gets the limit once, however many instances answer it', async () => {
    const address = new TestWallet().address
    const statuses: number[] = []
    for (let i = 0; i < 40; i++)
      for (const app of [t.app, other])
        statuses.push(
          (await app.inject({ method: 'POST', url: API_BASE + api.isReg.path, payload: { address } })).statusCode,
        )
    expect(statuses.filter((s) => s === 200)).toHaveLength(60)
    expect(statuses.filter((s) => s === 429)).toHaveLength(20)
    // Once over the limit, an instance refuses from memory: the database counts no more calls of this client.
    const row = await t.db.selectFrom('rate_limit_hits').select('hits').executeTakeFirstOrThrow()
    expect(row.hits).toBeLessThan(80)
  })
})

describe(`public reads (${dbKind})`, () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestApp({ publicRateLimit: 3 })
  })
  afterAll(() => t?.close())

  it('are limited per client address and route (PUBLIC_RATE_LIMIT); calls with a session are not', async () => {
    const from = (remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: API_BASE + api.noticeList.path, payload: {}, remoteAddress })
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await from('198.51.100.20')).statusCode)
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    expect((await from('198.51.100.21')).statusCode).toBe(200)
    const res = await from('198.51.100.20')
    expect(res.json()).toMatchObject({ code: Code.RATE_LIMITED, key: 'error.rateLimited', data: null })
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    const user = await member(t.app, (await seedRoot(t.db)).address)
    for (let i = 0; i < 5; i++) expect((await call(t.app, api.userIndex, {}, user.auth)).code).toBe(Code.OK)
  })
})

/** A JSON-RPC forwarder in front of the local chain that counts the calls it forwards. */
async function countingRpc(target: string) {
  let calls = 0
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString()
    const parsed = JSON.parse(body) as unknown
    calls += Array.isArray(parsed) ? parsed.length : 1
    const answer = await fetch(target, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe(`the solvency report (${dbKind})`, () => {
  let localnet: Localnet
  let rpc: Awaited<ReturnType<typeof countingRpc>>
  let t: TestContext
  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0, slotMs: 50 })
    rpc = await countingRpc(localnet.rpcUrl)
    t = await createTestApp({ rpcUrl: rpc.url, wsUrl: localnet.wsUrl })
    await seedAssets(t.db, t.app.config, t.platform)
  })
  afterAll(async () => {
    await t?.close()
    await rpc?.close()
    await localnet?.close()
  })

  it('reads the chain once for any number of requests, at once or one after another, within 5 s', async () => {
    const solvency = async () => (await call(t.app, api.solvency, {})).data as { read_at: string; list: unknown[] }
    const before = rpc.calls()
    const first = await Promise.all(Array.from({ length: 30 }, solvency))
    const oneRead = rpc.calls() - before
    expect(oneRead).toBeGreaterThan(0)
    expect(first[0]?.list.length).toBeGreaterThan(0)
    const later = []
    for (let i = 0; i < 30; i++) later.push(await solvency())
    expect(new Set([...first, ...later].map((report) => report.read_at)).size).toBe(1)
    expect(rpc.calls() - before).toBe(oneRead)
  })
})

describe(`every API path answers the envelope (${dbKind})`, () => {
  let t: TestContext
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-web-dist-'))
  beforeAll(async () => {
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html><head></head><body></body></html>')
    t = await createTestApp({ webDist })
  })
  afterAll(async () => {
    await t?.close()
    fs.rmSync(webDist, { recursive: true, force: true })
  })

  const send = (method: string, url: string) =>
    t.app.inject({ method: method as 'GET', url, headers: { 'accept-language': 'en' } })

  it('a wrong method on an API path: 405 with Allow and the envelope, never the web page', async () => {
    const res = await send('GET', API_BASE + api.nonce.path)
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('POST')
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toEqual({
      code: Code.BAD_REQUEST,
      msg: 'This API path does not take GET requests',
      key: 'error.methodNotAllowed',
      data: null,
    })
    // Any spelling of the path, a path parameter, and the GET routes' own paths.
    expect((await send('GET', '/API/Invest/invest_pledge/PLG/')).headers.allow).toBe('POST')
    expect((await send('DELETE', `${API_BASE}/health/ready`)).headers.allow).toBe('GET, HEAD')
    expect((await send('PUT', `${API_BASE}/config`)).statusCode).toBe(405)
  })

  it('an unknown API path: 404 and the envelope; the page only outside /api', async () => {
    for (const url of [`${API_BASE}/no/such/path`, API_BASE, `${API_BASE}/`, '/Api/assets/x.js']) {
      const res = await send('GET', url)
      expect(res.statusCode, url).toBe(404)
      expect((res.json() as Envelope).key, url).toBe('error.routeNotFound')
    }
    const page = await send('GET', '/pledge')
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
  })
})

describe(`the request timeout (${dbKind})`, () => {
  let t: TestContext
  let port: number
  // REQUEST_TIMEOUT_MS of 3 s instead of the default 20 s (config.test.ts): the same cut, sooner.
  const TIMEOUT_MS = 3000
  beforeAll(async () => {
    t = await createTestApp({ requestTimeoutMs: TIMEOUT_MS })
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    port = (t.app.server.address() as net.AddressInfo).port
  })
  afterAll(() => t?.close())

  it('a body trickled a byte a second is answered 408 with the envelope and closed once REQUEST_TIMEOUT_MS has passed', async () => {
    const started = Date.now()
    const socket = net.connect(port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      answer += chunk
    })
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
    socket.write(
      `POST ${API_BASE}${api.isReg.path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        'Accept-Language: en\r\nContent-Length: 100\r\n\r\n{',
    )
    const trickle = setInterval(() => socket.writable && socket.write(' '), 1000)
    const bound = setTimeout(() => socket.destroy(), 4 * TIMEOUT_MS)
    await closed
    clearInterval(trickle)
    clearTimeout(bound)
    const seconds = (Date.now() - started) / 1000
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout')
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      code: Code.BAD_REQUEST,
      msg: 'The request did not arrive in time, please try again',
      key: 'error.requestTimeout',
      data: null,
    })
    // Cut by the server, not by the bound above: after the timeout (Node looks every second), well before the body ends.
    expect(seconds).toBeGreaterThanOrEqual(TIMEOUT_MS / 1000)
    expect(seconds).toBeLessThan(3 * (TIMEOUT_MS / 1000))
  }, 30_000)
})
