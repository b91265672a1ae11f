// No 5xx from input, ever (docs/architecture.md#api-conventions): every contract route, walked from the contract's
// route table (a new route is fuzzed without touching this file), gets wrong bodies generated from its TypeBox body
// schema, known bad inputs (NUL characters, ids past bigint, 1e308, a lone surrogate in the path) and
// raw requests (bad URL escapes, wrong content types, invalid JSON, oversize bodies, control characters in headers) and
// every other method, anonymously and as a user, an admin and the operator, with the web app served beside the API.
// Each answer must be below 500 and the {code,msg,data} envelope of a refusal (a wrong method: 405 with Allow), and no
// table may change. FUZZ_RUNS (bodies per route and caller: 12 on PostgreSQL, 6 on PGlite) and FUZZ_SEED explore more.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  ADMIN_TOKEN_HEADER,
  API_BASE,
  api,
  Code,
  IDEMPOTENCY_HEADER,
  MAX_BODY_BYTES,
  type RouteDef,
  UPLOAD_FIELD,
} from '@solpledge/contract'
import fc from 'fast-check'
import type { LightMyRequestResponse as Response } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/index.ts'
import { multipartBody, PNG_1PX, signedInAdmin } from './admin.ts'
import { createTestApp, dbKind, member, seedRoot, sized, type TestContext, tableNames } from './helpers.ts'
import { FORBIDDEN_CHARS, HUGE_IDS, holes, type JsonSchema, refused, valid, wrong } from './schema-fuzz.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? sized(12, 6))
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_125)
const routes = Object.entries(api) as [string, RouteDef][]

/**
 * A checksum of every table: row count and an md5 of all rows. A refused request changes nothing: sessions and nonces
 * are only written by a successful login, the audit log only by a successful admin action. The one exception is the
 * login rate limit's counters (rate_limit_hits), which count every call, refused or not.
 */
async function checksums(db: Database): Promise<Record<string, string>> {
  const tables = (await tableNames(db)).filter((name) => name !== 'rate_limit_hits')
  const parts = tables.map(
    (name) =>
      `select '${name}' as name, count(*) || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as sum from "${name}" t`,
  )
  const { rows } = await sql.raw<{ name: string; sum: string }>(parts.join(' union all ')).execute(db)
  return Object.fromEntries(rows.map((r) => [r.name, r.sum]))
}

/** The headers the server reads. */
const READ_HEADERS = [
  'user-token',
  'user-address',
  ADMIN_TOKEN_HEADER.toLowerCase(),
  'operator-token',
  'accept-language',
  IDEMPOTENCY_HEADER.toLowerCase(),
]

/** The methods no contract route takes (every one is a POST). */
const WRONG_METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']

/** What a path param may be given: escapes, traversal, NUL, overlong, odd Unicode. */
const PARAM_TRICKS = [
  '%ED%A0%80',
  '%',
  '%zz',
  '%00',
  'PLG%00',
  '..%2F..%2Fconfig',
  '%2e%2e',
  '%C0%AE',
  'x'.repeat(300),
  '%F0%9F%92%A9',
  'PLG%0D%0Aset-cookie:%20a=b',
  HUGE_IDS[0] as string,
]

describe(`fuzz: no input causes a 5xx (${dbKind})`, () => {
  let t: TestContext
  const callers: Record<string, Record<string, string>> = { anonymous: {} }
  const stats = { routes: 0, bodies: 0, requests: 0, failures: 0 }

  // The web app is served too: its page must never answer an API path, whatever the method.
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-web-dist-'))
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html><head></head><body></body></html>')

  beforeAll(async () => {
    t = await createTestApp({ webDist })
    const root = await seedRoot(t.db)
    const user = await member(t.app, root.address)
    const admin = await signedInAdmin(t.app, t.db, 'admin')
    callers.user = { 'user-token': user.auth.token, 'user-address': user.address }
    callers.admin = admin.headers.headers
    callers.operator = { 'operator-token': t.platform.operatorToken }
  })
  afterAll(async () => {
    // What was fuzzed: routes, callers, generated bodies, requests and answers ≥ 500.
    console.log(
      `fuzz (${dbKind}): ${stats.routes} routes × ${Object.keys(callers).length} callers, ${stats.bodies} generated bodies, ` +
        `${stats.requests} requests in all, ${stats.failures} answers ≥ 500`,
    )
    await t?.close()
    fs.rmSync(webDist, { recursive: true, force: true })
  })

  /** Asserts the answer is a refusal envelope below 500; `what` names the request in the failure. */
  function expectRefusal(res: Response, what: string) {
    stats.requests++
    if (res.statusCode >= 500) stats.failures++
    expect(res.statusCode, what).toBeLessThan(500)
    let body: { code: number; msg: string; key: string } | undefined
    try {
      body = JSON.parse(res.body)
    } catch {
      expect.fail(`${what}: not JSON: ${res.body.slice(0, 200)}`)
    }
    expect(body, what).toEqual({
      code: expect.any(Number),
      msg: expect.any(String),
      key: expect.any(String),
      data: null,
    })
    expect(body?.code, `${what}: accepted`).not.toBe(Code.OK)
    expect(body?.msg, what).not.toBe('')
    expect(body?.key, what).not.toBe('')
  }

  const send = (url: string, headers: Record<string, string>, payload?: string | Buffer, method = 'POST') =>
    t.app.inject({
      method: method as 'POST',
      url,
      headers: {
        'accept-language': 'en',
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(payload !== undefined ? { payload } : {}),
    })

  it('the server registers exactly the contract routes', async () => {
    const { paths } = t.app.swagger() as { paths: Record<string, Record<string, unknown>> }
    const posts = Object.keys(paths).filter((path) => paths[path]?.post)
    const contract = routes.map(([, r]) => API_BASE + r.path.replace(/:(\w+)/g, '{$1}'))
    expect(posts.sort()).toEqual(contract.sort())
  })

  it('every body schema refuses control characters, ids past bigint, unbounded numbers and text, unknown fields', () => {
    const found = routes.flatMap(([name, r]) => holes(r.body as JsonSchema).map((hole) => `${name} ${hole}`))
    expect(found).toEqual([])
  })

  it.each(routes)('%s: wrong bodies and raw requests are refused, nothing changes', async (name, route) => {
    const index = stats.routes++
    const url = API_BASE + route.path.replace(/:(\w+)/g, 'PLG')
    const body = route.body as JsonSchema
    const bodies = fc.sample(fc.oneof(wrong(body), refused(body, fc.anything({ maxDepth: 3 }))), {
      numRuns: RUNS,
      seed: SEED + index,
    })
    const raw: [string, string | Buffer, string][] = [
      ['invalid JSON', '{"a":', 'application/json'],
      ['JSON with a NUL byte', '{"a":"\u0000"}', 'application/json'],
      ['prototype poisoning', '{"__proto__":{"admin":true}}', 'application/json'],
      ['constructor poisoning', '{"constructor":{"prototype":{"admin":true}}}', 'application/json'],
      ['not an object', '"x"', 'application/json'],
      ['empty JSON body', '', 'application/json'],
      ['JSON as text/plain', '{}', 'text/plain'],
      ['form data', 'a=1', 'application/x-www-form-urlencoded'],
      ['XML', '<x/>', 'application/xml'],
      ['UTF-16 JSON', Buffer.from('{}', 'utf16le'), 'application/json; charset=utf-16'],
      ['oversize', `{"a":"${'x'.repeat(MAX_BODY_BYTES)}"}`, 'application/json'],
    ]
    const file = multipartBody(UPLOAD_FIELD, 'x.png', 'image/png', PNG_1PX)
    // A valid body: what the header guard alone must refuse.
    const validBody = JSON.stringify(fc.sample(valid(body), { numRuns: 1, seed: SEED })[0])
    const before = await checksums(t.db)
    for (const [caller, headers] of Object.entries(callers)) {
      stats.bodies += bodies.length
      for (const body of bodies)
        expectRefusal(await send(url, headers, JSON.stringify(body)), `${caller} ${name} ${JSON.stringify(body)}`)
      for (const [what, payload, type] of raw)
        expectRefusal(await send(url, { ...headers, 'content-type': type }, payload), `${caller} ${name} ${what}`)
      if (!route.multipart)
        expectRefusal(
          await send(url, { ...headers, 'content-type': file.contentType }, file.payload),
          `${caller} ${name} multipart`,
        )
      // A control character in each header the server reads.
      for (const [i, header] of READ_HEADERS.entries()) {
        const char = FORBIDDEN_CHARS[i % FORBIDDEN_CHARS.length] as string
        expectRefusal(
          await send(url, { ...headers, [header]: `${headers[header] ?? 'x'}${char}` }, validBody),
          `${caller} ${name} ${header} with ${JSON.stringify(char)}`,
        )
      }
      // Path params with tricks; escapes and suffixes on every path.
      for (const trick of route.path.includes(':') ? PARAM_TRICKS : [])
        expectRefusal(
          await send(API_BASE + route.path.replace(/:(\w+)/g, trick), headers, '{"x":1}'),
          `${caller} ${name} param ${trick}`,
        )
      for (const suffix of ['%', '%ED%A0%80', '/%00', '?%zz=%', '/..%2F'])
        expectRefusal(await send(url + suffix, headers, '{"x":1}'), `${caller} ${name} ${suffix}`)
      // Every other method: 405, the methods the path takes, and the envelope (a HEAD answer has no body).
      for (const method of WRONG_METHODS) {
        const res = await send(url, headers, method === 'GET' || method === 'HEAD' ? undefined : validBody, method)
        const what = `${caller} ${method} ${name}`
        expect([res.statusCode, res.headers.allow], what).toEqual([405, 'POST'])
        if (method !== 'HEAD') expectRefusal(res, what)
      }
    }
    expect(await checksums(t.db), `${name}: a table changed`).toEqual(before)
  })

  it('NUL, an id past bigint, 1e308 and a lone surrogate in the path are refused with an envelope', async () => {
    const cases: [RouteDef, Record<string, unknown>, string][] = [
      [api.moneyLog, { page: 1, limit: 10, coin: '\u0000' }, 'user'],
      [api.adminNonce, { address: '\u0000' }, 'anonymous'],
      [api.financeDetail, { id: '9999999999999999999' }, 'user'],
      [api.trendChart, { interval: '1m', before: 1e308 }, 'anonymous'],
    ]
    for (const [route, body, caller] of cases) {
      const res = await send(API_BASE + route.path, callers[caller] ?? {}, JSON.stringify(body))
      expectRefusal(res, `${route.path} ${JSON.stringify(body)}`)
      expect(res.json().code, route.path).toBe(Code.INVALID)
    }
    const res = await send(`${API_BASE}/invest/invest_pledge/%ED%A0%80`, {}, '{}')
    expectRefusal(res, 'bad URL escape')
  })

  it('odd URLs and methods outside the routes answer the envelope', async () => {
    const urls = [
      `${API_BASE}/%`,
      `${API_BASE}/%ED%A0%80`,
      `${API_BASE}/user/login/nonce%00`,
      `${API_BASE}//user//login//nonce`,
      `${API_BASE}/user/login/nonce;a=1`,
      `${API_BASE}/${'a/'.repeat(2_000)}`,
      `${API_BASE}/no/such/path?%`,
    ]
    for (const url of urls)
      for (const method of ['POST', 'GET', 'PUT', 'DELETE', 'PATCH'])
        expectRefusal(await send(url, {}, method === 'GET' ? undefined : '{}', method), `${method} ${url}`)
    for (const method of ['GET', 'PUT', 'DELETE'])
      expectRefusal(await send(API_BASE + api.nonce.path, {}, undefined, method), `${method} nonce`)
  })
})
