// bench/live: the live channel's delivery (docs/benchmarks.md "bench/live"). On a throwaway PostgreSQL, on loopback:
// N clients connected to the channel and subscribed to the market; one order placed every 10 ms (resting sell orders,
// each a commit that publishes the book); for every order, the time from its commit (the outbox row's committed_at)
// to each client's receipt of the message, p50/p99 — on one instance (orders and clients on A) and across two
// (orders on A, clients on B: outbox → NOTIFY → B's hub). Then the memory per idle connection, and the polling the
// same clients replace (requests a second at the rate measured on /quick-trade before the channel).
// The latency's clients run in a worker thread (clients.mjs); the memory's in this process, so its figure per
// connection counts both ends, an upper bound for the server.
//   npm run bench:live -- --clients 1000 --seconds 10 --idle 5000

import { parseArgs } from 'node:util'
import v8 from 'node:v8'
import vm from 'node:vm'
import { Worker } from 'node:worker_threads'
import { API_BASE, api, LIVE_PATH, type LiveServerMessage } from '@solpledge/contract'
import { sql } from 'kysely'
import { WebSocket } from 'ws'
import { type App, buildApp } from '../../apps/server/src/app.ts'
import { openDatabase } from '../../apps/server/src/db/index.ts'
import { seedBusinessConfig } from '../../apps/server/src/modules/config/service.ts'
import {
  addOffChainAssets,
  call,
  createTestApp,
  creditAvailable,
  login,
  seedRoot,
  TestWallet,
  userIdOf,
} from '../../apps/server/test/helpers.ts'
import { benchPostgres } from '../postgres.ts'

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    idle: { type: 'string', default: '5000' },
  },
})
const clientCount = Number(values.clients)
const seconds = Number(values.seconds)
const idleCount = Number(values.idle)
/** Requests a minute an idle /quick-trade made while it polled (measured in Chromium before the channel: 78–82). */
const POLLS_PER_MINUTE = 80
const PLG = 1_000_000_000n

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

const pgCluster = await benchPostgres()
process.env.TEST_DATABASE_URL = pgCluster.url
const a = await createTestApp()
await addOffChainAssets(a.db)
await seedBusinessConfig(a.db)
const root = await seedRoot(a.db)
const bDb = await openDatabase({ url: a.url as string })
const b = await buildApp({ db: bDb, config: a.app.config, platform: a.platform })
await a.app.listen({ host: '127.0.0.1', port: 0 })
await b.listen({ host: '127.0.0.1', port: 0 })
const wsUrl = (app: App) => {
  const { port } = app.server.address() as { port: number }
  return `ws://127.0.0.1:${port}${API_BASE}${LIVE_PATH}`
}

const seller = new TestWallet()
const { token } = (await login(a.app, seller, root.address)).data as { token: string }
await creditAvailable(a.db, await userIdOf(a.db, seller.address), 'PLG', 1_000_000n * PLG)
const auth = { token, address: seller.address }
const tried = await call(a.app, api.tradeSell, { price: '1999900', amount: `${PLG}` }, auth)
if (tried.code !== 1) throw new Error(`an order was refused: ${JSON.stringify(tried)}`)

interface Client {
  socket: WebSocket
  /** Receipt time (ms since the epoch, fractional) of each market event, by its number. */
  received: Map<number, number>
}

/** Opens `count` clients subscribed to the market, in batches (the per-address cap is raised for the bench). */
async function connect(url: string, count: number): Promise<Client[]> {
  const clients: Client[] = []
  for (let start = 0; start < count; start += 200) {
    const batch = Array.from({ length: Math.min(200, count - start) }, async () => {
      const socket = new WebSocket(url)
      const client: Client = { socket, received: new Map() }
      await new Promise<void>((resolve, reject) => {
        socket.on('message', (data) => {
          const message = JSON.parse(data.toString()) as LiveServerMessage
          if (message.type === 'event' && message.topic === 'market')
            client.received.set(message.seq, performance.timeOrigin + performance.now())
          else if (message.type === 'ping') socket.send('{"op":"pong"}')
          else if (message.type === 'subscribed') resolve()
        })
        socket.once('open', () => socket.send('{"op":"sub","topic":"market"}'))
        socket.once('error', reject)
      })
      return client
    })
    clients.push(...(await Promise.all(batch)))
  }
  return clients
}

const close = async (clients: Client[]) => {
  await Promise.all(
    clients.map(
      (client) =>
        new Promise<void>((resolve) => {
          client.socket.once('close', () => resolve())
          client.socket.terminate()
        }),
    ),
  )
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN

let price = 2_000_000n
/** Places one resting sell order every 10 ms for `seconds` on A; resolves with the market numbers they published. */
async function placeOrders() {
  const first = Number(
    (await a.db.selectFrom('live_topics').select('seq').where('topic', '=', 'market').executeTakeFirst())?.seq ?? 0,
  )
  const placed: Promise<unknown>[] = []
  const started = Date.now()
  const total = seconds * 100
  await new Promise<void>((resolve) => {
    // Timers drift on a busy machine: each tick places the orders due by the clock, one per 10 ms since the start.
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor((Date.now() - started) / 10))
      while (placed.length < due) {
        price += 100n
        placed.push(call(a.app, api.tradeSell, { price: `${price}`, amount: `${PLG}` }, auth))
      }
      if (placed.length >= total) {
        clearInterval(timer)
        resolve()
      }
    }, 10)
  })
  await Promise.all(placed)
  const last = Number(
    (await a.db.selectFrom('live_topics').select('seq').where('topic', '=', 'market').executeTakeFirstOrThrow()).seq,
  )
  return { first, last, orders: placed.length }
}

/** Clients in a worker thread (clients.mjs): `ask` sends it a message and resolves with its answer. */
async function workerClients(url: string, count: number) {
  const worker = new Worker(new URL('./clients.mjs', import.meta.url), { workerData: { url, count } })
  const answers: ((message: WorkerAnswer) => void)[] = []
  worker.on('message', (message: WorkerAnswer) => answers.shift()?.(message))
  const next = () =>
    new Promise<WorkerAnswer>((resolve, reject) => {
      answers.push(resolve)
      worker.once('error', reject)
    })
  await next()
  return {
    ask: (message: { type: 'collect'; last: number } | { type: 'close' }) => {
      const answer = next()
      worker.postMessage(message)
      return answer
    },
    stop: () => worker.terminate(),
  }
}
type WorkerAnswer =
  | { type: 'ready' | 'closed' }
  | { type: 'collected'; complete: boolean; received: [number, number][][] }

async function measure(label: string, app: App) {
  const clients = await workerClients(wsUrl(app), clientCount)
  const { first, last, orders } = await placeOrders()
  // Every client has every event, or 10 s passed (then the missing ones count as lost).
  const deadline = Date.now() + 10_000
  let collected: Extract<WorkerAnswer, { type: 'collected' }>
  for (;;) {
    collected = (await clients.ask({ type: 'collect', last })) as typeof collected
    if (collected.complete || Date.now() > deadline) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const received = collected.received.map((pairs) => new Map(pairs))
  const { rows } = await sql<{ seq: string; committed: number }>`
    select seq, extract(epoch from committed_at) * 1000 as committed from live_outbox
    where topic = 'market' and seq > ${first} and seq <= ${last}`.execute(a.db)
  const latencies: number[] = []
  let lost = 0
  for (const row of rows) {
    for (const client of received) {
      const at = client.get(Number(row.seq))
      if (at === undefined) lost++
      else latencies.push(at - Number(row.committed))
    }
  }
  latencies.sort((x, y) => x - y)
  console.log(
    `${label}: ${clientCount} clients, ${orders} orders in ${seconds} s → ${rows.length} market events, ` +
      `${latencies.length} messages delivered (${(latencies.length / seconds).toFixed(0)}/s), ${lost} lost; ` +
      `commit → client p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms, ` +
      `max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms`,
  )
  await clients.ask({ type: 'close' })
  await clients.stop()
}

try {
  // The per-address cap (LIVE_MAX_PER_IP) would refuse a bench's clients, which all come from 127.0.0.1.
  for (const app of [a.app, b]) Object.assign(app.config.live, { maxPerIp: 1_000_000 })
  // Memory first, while the process holds nothing else.
  gc()
  const before = process.memoryUsage()
  const idle = await connect(wsUrl(a.app), idleCount)
  gc()
  const after = process.memoryUsage()
  const per = (key: 'rss' | 'heapUsed' | 'external') => (after[key] - before[key]) / idleCount / 1024
  console.log(
    `idle: ${idleCount} connections subscribed to the market: ${per('rss').toFixed(1)} KB RSS, ` +
      `${per('heapUsed').toFixed(1)} KB JS heap and ${per('external').toFixed(1)} KB buffers per connection ` +
      `(server and client ends together)`,
  )
  await close(idle)
  await measure('one instance (orders and clients on A)', a.app)
  await measure('two instances (orders on A, clients on B)', b)

  console.log(
    `polling replaced: ${clientCount} idle /quick-trade screens at ${POLLS_PER_MINUTE} requests a minute = ` +
      `${((clientCount * POLLS_PER_MINUTE) / 60).toFixed(0)} requests/s; on the channel: 0 requests/s and one ping ` +
      `each per ${a.app.config.live.heartbeatMs / 1000} s`,
  )
} finally {
  await b.close()
  await bDb.destroy()
  await a.close()
  await pgCluster.stop()
}
