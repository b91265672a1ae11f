// bench/trade: quick trade throughput. (a) The in-memory engine alone: commands per second on a realistic mix — 60 %
// limit orders near the mid that rest, 25 % cancels, 15 % orders that cross and fill — from thousands of users, after
// a warm-up. (b) The same mix persisted on a throwaway PostgreSQL through the trade service (batches of commands, each
// one transaction with its orders, fills and ledger transfers) from concurrent workers, against the ledger's transfer
// figure of bench/ledger measured in the same run on the same cluster. Afterwards: ledger invariants, and a book
// rebuilt from the database equals the live one. Also per batch the round trips to PostgreSQL (node-postgres queries,
// BEGIN and COMMIT included), and per command the CPU time of this process and of the cluster: on a shared machine
// these move much less than the throughput.
// Usage: tsx bench/trade/run.ts [--engine-seconds 5 --duration 10 --workers 16 --users 2000 --json bench/results/trade.json]
//        tsx bench/trade/run.ts --engine-only

import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import pg from 'pg'
import { type Database, migrate, openDatabase } from '../../apps/server/src/db/index.ts'
import { AppError } from '../../apps/server/src/lib/app-error.ts'
import { seedBusinessConfig } from '../../apps/server/src/modules/config/service.ts'
import { creditUsers } from '../../apps/server/src/modules/ledger/bulk.ts'
import { checkInvariants } from '../../apps/server/src/modules/ledger/service.ts'
import { type Incoming, OrderBook, type Side } from '../../apps/server/src/modules/trade/engine.ts'
import { IdMap } from '../../apps/server/src/modules/trade/id-map.ts'
import { TradeMarket } from '../../apps/server/src/modules/trade/market.ts'
import { cancelOrder, placeOrder } from '../../apps/server/src/modules/trade/service.ts'
import { postgresCluster } from '../../apps/server/test/fixtures/database.ts'
import { measureTransfers } from '../ledger/transfers.ts'
import { benchPostgres, clusterCpuMs } from '../postgres.ts'

const { values } = parseArgs({
  options: {
    'engine-seconds': { type: 'string', default: '5' },
    'engine-only': { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    workers: { type: 'string', default: '16' },
    users: { type: 'string', default: '2000' },
    json: { type: 'string' },
  },
})
const engineSeconds = Number(values['engine-seconds'])
const duration = Number(values.duration)
const workers = Number(values.workers)
const users = Number(values.users)

const UNIT = 10n ** 9n // one PLG
const LOT = 10_000_000n // the demo configuration's lot (0.01 PLG) and tick (0.0001 USDT)
const TICK = 100n
const MID = 500_000n // 0.5 USDT

/** A small fast generator (mulberry32): the same mix every run. */
function random(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let r = Math.imul(a ^ (a >>> 15), 1 | a)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296
  }
}

type Command = { kind: 'cancel' } | { kind: 'limit' | 'cross'; side: Side; price: bigint; amount: bigint }

/**
 * The mix: a resting limit order 1–50 ticks from the mid on its side, a cancel of a resting order, or an order 60
 * ticks through the mid that fills against the other side; amounts of 1–100 PLG in lots, crossing ones 1–235 PLG: on
 * average they take what the limit orders add and the cancels do not remove, so the book keeps its size.
 */
function mix(next: () => number): Command {
  const roll = next()
  if (roll < 0.25) return { kind: 'cancel' }
  const side: Side = next() < 0.5 ? 'buy' : 'sell'
  const away = (side === 'buy' ? -1n : 1n) * TICK
  if (roll < 0.85) {
    const ticks = BigInt(1 + Math.floor(next() * 50))
    return { kind: 'limit', side, price: MID + away * ticks, amount: UNIT + BigInt(Math.floor(next() * 9900)) * LOT }
  }
  return { kind: 'cross', side, price: MID - away * 60n, amount: UNIT + BigInt(Math.floor(next() * 23_400)) * LOT }
}

/**
 * (a) Commands per second on the engine alone, pre-generated so the loop measures the book. The commands are kept as
 * small typed arrays of indexes into tables of the few distinct prices, amounts and user ids (bigints made once), not
 * as a million objects with bigints of their own: the same commands, in a tenth of the memory (docs/benchmarks.md).
 */
function engine(seconds: number) {
  const next = random(7)
  const N = 1 << 20
  const kinds = new Uint8Array(N) // 0 cancel, 1 limit or cross (both place an order)
  const sides = new Uint8Array(N) // 0 buy, 1 sell
  const priceAt = new Uint16Array(N) // index into `prices`: ticks from the mid, + 100
  const amountAt = new Uint16Array(N) // index into `amounts`: lots above one PLG
  const userAt = new Uint32Array(N) // index into `userTable`
  const prices = Array.from({ length: 201 }, (_, i) => MID + BigInt(i - 100) * TICK)
  const amounts = Array.from({ length: 23_400 }, (_, i) => UNIT + BigInt(i) * LOT)
  const userTable = Array.from({ length: users }, (_, i) => BigInt(1 + i))
  for (let k = 0; k < N; k++) {
    const command = mix(next)
    if (command.kind === 'cancel') continue
    kinds[k] = 1
    sides[k] = command.side === 'buy' ? 0 : 1
    priceAt[k] = Number((command.price - MID) / TICK) + 100
    amountAt[k] = Number((command.amount - UNIT) / LOT)
  }
  for (let k = 0; k < N; k++) userAt[k] = Math.floor(next() * users)
  const picks = new Float64Array(N)
  for (let k = 0; k < N; k++) picks[k] = next()
  const book = new OrderBook({ baseUnit: UNIT, lot: LOT })
  let id = 0n
  let fills = 0
  let i = 0
  // The resting orders' ids, for cancels to pick from: an array with each id's index (in the engine's own map of ids,
  // modules/trade/id-map.ts), so that adding, removing and picking are all O(1).
  const resting: bigint[] = []
  const at = new IdMap<number>()
  const remove = (victim: bigint) => {
    const index = at.take(victim) as number
    const last = resting.pop() as bigint
    if (last !== victim) {
      resting[index] = last
      at.set(last, index)
    }
  }
  const step = () => {
    const k = i++ & (N - 1)
    if (kinds[k] === 0) {
      if (resting.length === 0) return
      const victim = resting[Math.floor((picks[k] as number) * resting.length)] as bigint
      book.cancel(victim)
      remove(victim)
      return
    }
    id += 1n
    const order: Incoming = {
      id,
      userId: userTable[userAt[k] as number] as bigint,
      side: sides[k] === 0 ? 'buy' : 'sell',
      price: prices[priceAt[k] as number] as bigint,
      amount: amounts[amountAt[k] as number] as bigint,
      immediateOrCancel: false,
    }
    const result = book.place(order)
    fills += result.fills.length
    for (const fill of result.fills) if (fill.makerRemaining === 0n) remove(fill.makerId)
    if (result.rested > 0n) {
      at.set(id, resting.length)
      resting.push(id)
    }
  }
  const run = (ms: number) => {
    let count = 0
    const until = performance.now() + ms
    while (performance.now() < until) {
      for (let j = 0; j < 1000; j++) step()
      count += 1000
    }
    return count
  }
  // A book of realistic depth first (20,000 resting orders), then a warm-up for the JIT.
  while (book.size < 20_000) {
    const command = mix(next)
    if (command.kind !== 'limit') continue
    id += 1n
    const { side, price, amount } = command
    book.place({ id, userId: 1n + (id % BigInt(users)), side, price, amount, immediateOrCancel: false })
    at.set(id, resting.length)
    resting.push(id)
  }
  run(1000)
  const fillsBefore = fills
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  const count = run(seconds * 1000)
  const elapsed = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  // The process's CPU time (its threads: the garbage collector's helpers too) shows the cost when the shared
  // machine's load makes the wall-clock figure swing.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  return {
    perSecond: count / elapsed,
    perCpuSecond: count / cpuSeconds,
    commands: count,
    fills: fills - fillsBefore,
    resting: book.size,
  }
}

// The engine runs first, alone on the machine; then the cluster starts.
const memory = engine(engineSeconds)
console.log(
  `engine: ${Math.round(memory.perSecond)} commands/s, ${Math.round(memory.perCpuSecond)} per CPU second ` +
    `(${memory.commands} commands, ${memory.fills} fills, ${memory.resting} resting at the end)`,
)
if (values['engine-only']) process.exit(0)

const cluster = await benchPostgres()

/**
 * Round trips to PostgreSQL: node-postgres' queries (BEGIN, every statement and COMMIT are one each), counted while
 * `roundTrips.on`.
 */
const roundTrips = { on: false, count: 0 }
const query = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (roundTrips.on) roundTrips.count++
  return (query as (...a: unknown[]) => unknown).apply(this, args)
} as typeof query
const { admin, urlOf: databaseUrl } = postgresCluster(cluster.url)
const createDatabase = (name: string) => admin(`create database ${name}`)

/** Users with plenty of both assets, credited set-based as the settlement credits. */
async function setUp(db: Database) {
  await migrate(db)
  await db
    .insertInto('assets')
    .values([
      { code: 'PLG', symbol: 'PLG', decimals: 9, mint: null, sort: 0 },
      { code: 'USDT', symbol: 'USDT', decimals: 6, mint: null, sort: 1 },
    ])
    .execute()
  await seedBusinessConfig(db)
  const ids = await db
    .insertInto('users')
    .values(Array.from({ length: users }, (_, i) => ({ address: `bench-trader-${i}`, parent_id: null })))
    .returning('id')
    .execute()
  await db.transaction().execute((trx) =>
    creditUsers(trx, {
      credits: sql`
        select u.id as user_id, a.code as asset, (10::numeric ^ 18)::numeric(38, 0) as amount,
          'fund:' || u.id || ':' || a.code as key, null::text as reference
        from users u cross join assets a`,
      from: 'chain',
      type: 'deposit',
    }),
  )
  return ids.map((row) => row.id)
}

/** (b) The mix through the trade service on PostgreSQL from `workers` concurrent workers. */
async function persisted(seconds: number) {
  await createDatabase('trade_bench')
  const db = await openDatabase({ url: databaseUrl('trade_bench') })
  try {
    const userIds = await setUp(db)
    const market = new TradeMarket(db, 'PLG')
    const counts = { placed: 0, cancelled: 0, refused: 0, batches: 0 }
    const until = { time: 0 }
    const worker = async (w: number) => {
      const next = random(100 + w)
      // This worker's orders that were resting when placed: its cancels pick from them.
      const mine: { userId: string; id: string }[] = []
      while (performance.now() < until.time) {
        const command = mix(next)
        try {
          if (command.kind === 'cancel') {
            if (mine.length === 0) continue
            const at = Math.floor(next() * mine.length)
            const victim = mine[at] as { userId: string; id: string }
            mine[at] = mine[mine.length - 1] as { userId: string; id: string }
            mine.pop()
            await cancelOrder(market, victim.userId, victim.id)
            counts.cancelled++
          } else {
            const userId = userIds[Math.floor(next() * userIds.length)] as string
            const order = await placeOrder(market, userId, command.side, {
              price: command.price.toString(),
              amount: command.amount.toString(),
            })
            counts.placed++
            if (order.status === 'pending') mine.push({ userId, id: order.id })
          }
        } catch (error) {
          // A cancel of an order filled meanwhile is refused, as it would be for a user.
          if (!(error instanceof AppError)) throw error
          counts.refused++
        }
      }
    }
    // Warm-up: a second of the same load.
    until.time = performance.now() + 1000
    await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)))
    const before = { ...counts }
    const seqBefore = BigInt((await db.selectFrom('trade_markets').select('seq').executeTakeFirstOrThrow()).seq)
    const cpu = () => {
      const { user, system } = process.cpuUsage()
      return { node: (user + system) / 1000, postgres: clusterCpuMs(cluster.port) }
    }
    const cpuBefore = cpu()
    roundTrips.on = true
    const started = performance.now()
    until.time = started + seconds * 1000
    await Promise.all(Array.from({ length: workers }, (_, w) => worker(w + workers)))
    const elapsed = (performance.now() - started) / 1000
    roundTrips.on = false
    const cpuAfter = cpu()
    const seqAfter = BigInt((await db.selectFrom('trade_markets').select('seq').executeTakeFirstOrThrow()).seq)
    const accepted = counts.placed - before.placed + counts.cancelled - before.cancelled
    const refused = counts.refused - before.refused

    const violations = await checkInvariants(db)
    if (violations.length > 0) throw new Error(`ledger invariants broken: ${violations.join('; ')}`)
    const live = await market.read(({ book }) => book.orders())
    const rebuilt = await new TradeMarket(db, 'PLG').read(({ book }) => book.orders())
    const same =
      JSON.stringify(live, (_, v) => (typeof v === 'bigint' ? v.toString() : v)) ===
      JSON.stringify(rebuilt, (_, v) => (typeof v === 'bigint' ? v.toString() : v))
    if (!same) throw new Error('the book rebuilt from the database differs from the live book')
    const fills = await db.selectFrom('trade_fills').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()
    const batches = Number(seqAfter - seqBefore)
    const postgresMs =
      cpuBefore.postgres === null || cpuAfter.postgres === null ? null : cpuAfter.postgres - cpuBefore.postgres
    return {
      perSecond: accepted / elapsed,
      accepted,
      refused,
      batches,
      roundTrips: roundTrips.count / Math.max(1, batches),
      // CPU time per command (µs): this process's (the workers, the market, node-postgres) and the cluster's.
      nodeCpu: Math.round(((cpuAfter.node - cpuBefore.node) * 1000) / Math.max(1, accepted)),
      postgresCpu: postgresMs === null ? null : Math.round((postgresMs * 1000) / Math.max(1, accepted)),
      resting: live.length,
      fills: Number(fills.n),
    }
  } finally {
    await db.destroy()
  }
}

try {
  await createDatabase('trade_ledger_bench')
  const ledger = await measureTransfers({
    url: databaseUrl('trade_ledger_bench'),
    workers,
    users: 1000,
    seconds: duration,
  })
  const trade = await persisted(duration)
  const figures = {
    'engine commands/s': Math.round(memory.perSecond),
    'engine target': '≥ 1000000',
    'persisted commands/s': Math.round(trade.perSecond),
    'ledger transfers/s': Math.round(ledger.tps),
    ratio: Number((trade.perSecond / ledger.tps).toFixed(3)),
    'ratio target': '≥ 0.5',
    'commands per batch': Number((trade.accepted / Math.max(1, trade.batches)).toFixed(1)),
    'round trips per batch': Number(trade.roundTrips.toFixed(2)),
    'CPU µs per command: node': trade.nodeCpu,
    'CPU µs per command: PostgreSQL': trade.postgresCpu,
    'peak RSS MB': Math.round(process.resourceUsage().maxRSS / 1024),
  }
  console.log(
    `\nbench/trade — engine ${engineSeconds}s (${memory.commands} commands, ${memory.fills} fills, ` +
      `${memory.resting} resting at the end); PostgreSQL ${workers} workers, ${users} users, ${duration}s ` +
      `(${trade.accepted} commands, ${trade.refused} refused, ${trade.fills} fills, ${trade.resting} resting; ` +
      'rebuilt book equal, ledger invariants hold)',
  )
  console.table(figures)
  if (values.json) {
    fs.mkdirSync(path.dirname(values.json), { recursive: true })
    fs.writeFileSync(
      values.json,
      JSON.stringify({ date: new Date().toISOString(), engineSeconds, duration, workers, users, ...figures }, null, 2),
    )
  }
} finally {
  cluster.stop()
}
