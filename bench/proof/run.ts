// bench/proof: a proof-of-liabilities snapshot of 1,000,000 users × 2 assets on a throwaway PostgreSQL (and of
// 100,000 first, to show memory flat in the number of users), published on the local chain, against the physical
// baseline measured in the same run: SHA-256 over as many bytes as the tree hashes, in one pass.
// Prints: the tree build (salted commitments, leaves and nodes of the same number of users, in memory) vs the baseline
// (target ≤ 3×); the whole snapshot (read, build, store) and its publication (target ≤ 60 s together); the Node
// process's peak RSS during each snapshot (flat from 100,000 to 1,000,000); proof latency p50/p99 (target p99 ≤ 20 ms).
// Usage: tsx bench/proof/run.ts [--users 1000000 --small 100000 --proofs 2000 --json bench/results/proof.json]
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { getBase58Decoder } from '@solana/kit'
import { startLocalnet } from '@solpledge/localnet'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { loadConfig } from '../../apps/server/src/config.ts'
import { migrate } from '../../apps/server/src/db/index.ts'
import type { DB } from '../../apps/server/src/db/schema.ts'
import { seedAssets } from '../../apps/server/src/modules/assets/seed.ts'
import { publishSnapshot } from '../../apps/server/src/modules/liabilities/publish.ts'
import { inclusionProof, takeSnapshot } from '../../apps/server/src/modules/liabilities/snapshot.ts'
import { levelSizes, TreeBuilder } from '../../apps/server/src/modules/liabilities/tree.ts'
import { loadPlatform } from '../../apps/server/src/platform.ts'
import { benchPostgres } from '../postgres.ts'

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000000' },
    small: { type: 'string', default: '100000' },
    proofs: { type: 'string', default: '2000' },
    json: { type: 'string' },
  },
})
const sizes = [Number(values.small), Number(values.users)].filter((n) => n > 0)
const ASSETS = 2
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)
const s = (ms: number) => Math.round(ms) / 1000

/** Bytes the v1 tree of `users` users hashes: per user a commitment and a leaf, per inner node its two children. */
function treeBytes(users: number) {
  const inner = levelSizes(users)
    .slice(1)
    .reduce((a, b) => a + b, 0)
  const tag = 'solpledge-pol-v1:user'.length
  const node = 32 + 16 * ASSETS
  return users * (tag + 32 + 32) + users * (tag + 32 + 16 * ASSETS) + inner * (tag + 2 * node)
}

/**
 * The tree of `users` users built in memory by the snapshot's code (random addresses and amounts, salts drawn by the
 * builder), once the hashing workers are started, and SHA-256 of as many bytes in one pass.
 */
async function hashing(users: number) {
  const addresses = Array.from({ length: 1024 }, () => randomBytes(32))
  const amounts = Array.from({ length: 1024 }, (_, i) => [BigInt(i) * 1000n, BigInt(i)])
  const build = async (count: number) => {
    const tree = new TreeBuilder(ASSETS, 1024)
    let hashing = tree.take()
    for (let i = 0; i < count; i++) {
      tree.push(addresses[i % 1024] as Buffer, amounts[i % 1024] as bigint[])
      // As a snapshot does: the workers hash a batch while the next one is read.
      if (i % 65536 === 65535) {
        await hashing
        hashing = tree.take()
      }
    }
    await tree.finish()
    await tree.take()
  }
  await build(16 * 1024)
  const started = performance.now()
  await build(users)
  const treeMs = performance.now() - started
  const bytes = Buffer.alloc(treeBytes(users), 7)
  const baseline = performance.now()
  createHash('sha256').update(bytes).digest()
  return { treeMs, baselineMs: performance.now() - baseline, bytes: bytes.length }
}

/** Samples the process's resident set while `work` runs. */
async function sampled<T>(work: () => Promise<T>) {
  let peakRss = process.memoryUsage().rss
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
  }, 25)
  const started = performance.now()
  try {
    const result = await work()
    return { result, ms: performance.now() - started, peakRss }
  } finally {
    clearInterval(timer)
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0

const cluster = (await benchPostgres()) as { url: string; stop: () => void }
const localnet = await startLocalnet({ port: 0, slotMs: 100 })
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-bench-proof-'))
const results: Record<string, unknown>[] = []
const phases: Record<string, unknown>[] = []
try {
  const config = loadConfig({
    SOLPLEDGE_LOCAL_CHAIN: '1',
    DATA_DIR: dataDir,
    SOLANA_RPC_URL: localnet.rpcUrl,
    SOLANA_WS_URL: localnet.wsUrl,
    PUBLIC_URL: 'http://localhost:3000',
  })
  const platform = await loadPlatform(config)
  for (const users of sizes) {
    const name = `pol_${users}`
    {
      const client = new pg.Client({ connectionString: cluster.url })
      await client.connect()
      await client.query(`create database ${name}`)
      await client.end()
    }
    const url = new URL(cluster.url)
    url.pathname = `/${name}`
    const db = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 4 }) }),
    })
    try {
      console.log(`seeding ${users} users with PLG and USDT balances …`)
      const seeded = performance.now()
      await migrate(db)
      await seedAssets(db, config, platform)
      // Real 32-byte addresses: the first 40 characters of a random one and the user's number in the last four
      // base58 digits (58^4 > 11 million distinct values, all still 32 bytes). Rows as root users, without the
      // users' triggers (the referral tree is not what a snapshot reads).
      const prefix = getBase58Decoder()
        .decode(Buffer.concat([Buffer.from([0x40]), randomBytes(31)]))
        .slice(0, 40)
      const digit = (k: number) => sql`substr(${BASE58}, (i / ${58 ** k}) % 58 + 1, 1)`
      await db.transaction().execute(async (trx) => {
        await sql`set local session_replication_role = replica`.execute(trx)
        await sql`
          insert into users (address)
          select ${prefix} || ${digit(3)} || ${digit(2)} || ${digit(1)} || ${digit(0)}
          from generate_series(0, ${users - 1}::int) i`.execute(trx)
      })
      await sql`
        insert into ledger_accounts (user_id, asset, kind, balance)
        select id, a.code, 'available', (1 + (id * 7919) % 1000000) * a.unit
        from users cross join (values ('PLG', 1000000), ('USDT', 1)) a(code, unit)`.execute(db)
      await sql`vacuum analyze`.execute(db)
      const seedMs = performance.now() - seeded

      console.log('snapshot …')
      const timings: Record<string, number> = {}
      const snapshot = await sampled(() => takeSnapshot(db, platform, { timings }))
      const id = snapshot.result as string
      const publishing = performance.now()
      let state = 'pending'
      for (let attempt = 0; attempt < 100 && state !== 'published'; attempt++)
        state = await publishSnapshot(db, platform, id)
      const publishMs = performance.now() - publishing
      if (state !== 'published') throw new Error('the memo was not confirmed')

      console.log('proofs …')
      const ids = await sql<{ id: string }>`
        select user_id::text as id from liability_leaves where snapshot_id = ${id} order by random() limit ${Number(values.proofs)}`.execute(
        db,
      )
      const times: number[] = []
      for (const row of ids.rows) {
        const started = performance.now()
        await inclusionProof(db, row.id)
        times.push(performance.now() - started)
      }
      times.sort((a, b) => a - b)
      const size = await sql<{ bytes: string }>`
        select pg_total_relation_size('liability_nodes') + (
          select sum(pg_total_relation_size(inhrelid)) from pg_inherits where inhparent = 'liability_leaves'::regclass
        ) as bytes`.execute(db)
      results.push({
        users,
        'seed s': s(seedMs),
        'snapshot s': s(snapshot.ms),
        'publish s': s(publishMs),
        'snapshot + publish s': s(snapshot.ms + publishMs),
        'peak RSS MB': mb(snapshot.peakRss),
        'proof p50 ms': Math.round(percentile(times, 0.5) * 100) / 100,
        'proof p99 ms': Math.round(percentile(times, 0.99) * 100) / 100,
        'stored MB': mb(Number(size.rows[0]?.bytes ?? 0)),
      })
      console.table([results.at(-1)])
      console.table([Object.fromEntries(Object.entries(timings).map(([phase, ms]) => [phase, s(ms)]))])
      phases.push({ users, ...Object.fromEntries(Object.entries(timings).map(([phase, ms]) => [`${phase} s`, s(ms)])) })
    } finally {
      await db.destroy()
    }
  }
  const largest = Math.max(...sizes)
  console.log(`tree build of ${largest} users in memory vs SHA-256 of as many bytes in one pass …`)
  const h = await hashing(largest)
  const hash = {
    users: largest,
    'hashed MB': mb(h.bytes),
    'tree build s': s(h.treeMs),
    'baseline s': s(h.baselineMs),
    ratio: Math.round((h.treeMs / h.baselineMs) * 10) / 10,
  }
  console.table(results)
  console.table(phases)
  console.table([hash])
  if (values.json) {
    fs.mkdirSync(path.dirname(values.json), { recursive: true })
    fs.writeFileSync(values.json, JSON.stringify({ snapshots: results, phases, hashing: hash }, null, 2))
  }
} finally {
  await localnet.close()
  cluster.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
}
