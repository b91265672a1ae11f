// bench/http: autocannon against the authenticated /api/user/user/index and a bare Fastify route in the same run on
// loopback, on PGlite and on PostgreSQL, with the session cache as in production (SESSION_CACHE_MS default 2000: the
// session is read once per 2 s) and without it (0: one database read per call). Prints req/s, p50, p99 and the ratio,
// and the server process's CPU time per request for both (steadier than req/s on a machine shared with other work).
// Then a money call with the session cache on: a 1 USDT finance deposit with a new Idempotency-Key each (the key's
// claim, the deposit's transaction and the stored answer: docs/money.md), by one user per connection.
// Usage: npm run bench:http [-- --duration 10 --connections 50 --only pglite|postgres --json bench/results/http.json]
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { bundleEntries } from '../../apps/server/test/fixtures/server-bundle.ts'
import { benchPostgres } from '../postgres.ts'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    json: { type: 'string' },
    only: { type: 'string' },
    /** The money call's users, one per connection (default: as many as connections). */
    users: { type: 'string' },
  },
})
const duration = Number(values.duration)
const connections = Number(values.connections)

interface Ready {
  /** The app's URL by SESSION_CACHE_MS: the default (2000) and 0. */
  appUrls: Record<string, string>
  bareUrl: string
  token: string
  address: string
  users: { token: string; address: string }[]
}

/**
 * The server compiled as production's build is (no tsx: under tsx every function the app creates per request also paid
 * tsx's name-keeping helper, about a tenth of the app's CPU per request).
 */
const bundle = await bundleEntries({ server: 'bench/http/server.ts' })
process.on('exit', () => bundle.remove())

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(bundle.dir, 'start-server.mjs')], {
    env: { ...process.env, ...env },
    // The IPC channel answers the server's CPU time (process.cpuUsage) on request.
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  /** The server process's CPU time so far, in µs (user + system). */
  const cpu = () =>
    Promise.race([
      new Promise<number>((resolve) => {
        child.once('message', (usage: NodeJS.CpuUsage) => resolve(usage.user + usage.system))
        child.send('cpu')
      }),
      exited.then(() => Promise.reject(new Error('the bench server exited'))),
    ])
  // Stopping waits for the child to close its server and its database pool: a cluster stopped before that makes the
  // pool's connections fail with ECONNREFUSED in the child.
  const stop = async () => {
    child.kill('SIGTERM')
    await exited
  }
  return new Promise<{ ready: Ready; stop: () => Promise<void>; cpu: () => Promise<number> }>((resolve, reject) => {
    let buffer = ''
    child.stdout?.on('data', (chunk) => {
      buffer += chunk
      const line = buffer.split('\n').find((l) => l.startsWith('{"ready"'))
      if (line) resolve({ ready: JSON.parse(line) as Ready, stop, cpu })
    })
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)))
  })
}

async function measure(
  url: string,
  headers: Record<string, string>,
  body = '{}',
  setupRequest?: (request: autocannon.Request) => autocannon.Request,
  cpu?: () => Promise<number>,
) {
  const cpuBefore = await cpu?.()
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration,
    headers: { 'content-type': 'application/json', ...headers },
    body,
    // A money call on PGlite (one session for all) can queue for seconds under 50 connections on a busy machine.
    timeout: 60,
    ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
  })
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  const cpuUs = cpu && cpuBefore !== undefined ? ((await cpu()) - cpuBefore) / result.requests.total : Number.NaN
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs }
}

/** Finance deposits of 1 USDT, each with a new Idempotency-Key, by the ready users in turn. */
async function measureMoney(ready: Ready, appUrl: string) {
  let next = 0
  return measure(
    `${appUrl}/api/invest/finance/deposit`,
    { 'accept-language': 'en' },
    JSON.stringify({ days: 7, amount: '1000000' }),
    (request) => {
      const user = ready.users[next++ % ready.users.length] as Ready['users'][number]
      return {
        ...request,
        headers: {
          ...request.headers,
          'user-token': user.token,
          'user-address': user.address,
          'idempotency-key': randomUUID(),
        },
      }
    },
  )
}

const rows: Array<Record<string, string | number>> = []
const moneyRows: Array<Record<string, string | number>> = []
const databases = ['pglite', 'postgres'].filter((d) => !values.only || values.only === d)
for (const database of databases) {
  const pg = database === 'postgres' ? await benchPostgres() : undefined
  const server = startServer({
    BENCH_USERS: values.users ?? String(connections),
    ...(pg ? { TEST_DATABASE_URL: pg.url } : {}),
  })
  try {
    const { ready, cpu } = await server
    for (const [sessionCacheMs, appUrl] of Object.entries(ready.appUrls).sort(([a], [b]) => Number(b) - Number(a))) {
      const read = () =>
        measure(
          `${appUrl}/api/user/user/index`,
          { 'user-token': ready.token, 'user-address': ready.address, 'accept-language': 'en' },
          '{}',
          undefined,
          cpu,
        )
      const bareRoute = () => measure(`${ready.bareUrl}/api/bare`, {}, '{}', undefined, cpu)
      // Warm up both, then measure the app and the bare route back to back.
      await bareRoute()
      await read()
      const app = await read()
      const bare = await bareRoute()
      rows.push({
        database,
        'session cache ms': Number(sessionCacheMs),
        'app req/s': Math.round(app.rps),
        'app p50 ms': app.p50,
        'app p99 ms': app.p99,
        'bare req/s': Math.round(bare.rps),
        'bare p50 ms': bare.p50,
        'bare p99 ms': bare.p99,
        ratio: Number((app.rps / bare.rps).toFixed(3)),
        target: '≥ 0.5',
        // The server's CPU time per request: on a shared machine it moves much less than req/s (docs/benchmarks.md).
        'app CPU µs/req': Math.round(app.cpuUs),
        'bare CPU µs/req': Math.round(bare.cpuUs),
        'CPU ratio': Number((bare.cpuUs / app.cpuUs).toFixed(3)),
      })
      if (sessionCacheMs !== '0') {
        const money = await measureMoney(ready, appUrl)
        moneyRows.push({
          database,
          'deposit req/s': Math.round(money.rps),
          'deposit p50 ms': money.p50,
          'deposit p99 ms': money.p99,
        })
      }
    }
  } finally {
    await server.then(({ stop }) => stop()).catch(() => {})
    pg?.stop()
  }
}
console.log(`\nbench/http — ${connections} connections, ${duration}s each, loopback`)
console.table(rows)
console.log('A money call: a finance deposit with a new Idempotency-Key each')
console.table(moneyRows)
if (values.json) {
  fs.mkdirSync(path.dirname(values.json), { recursive: true })
  fs.writeFileSync(
    values.json,
    JSON.stringify({ date: new Date().toISOString(), duration, connections, rows, money: moneyRows }, null, 2),
  )
}
