// bench/settlement: one day's settlement of 1,000,000 mining stakes held by 1,000,000 users in a referral tree, on a
// throwaway PostgreSQL, against the physical baseline measured in the same run: one bare UPDATE of the same stakes
// (`update stakes set released = released + 1 where status = 'mining'`) on an identical copy of the database.
// Prints both times, their ratio (target ≤ 3, on day 1 and on day 2), the PostgreSQL cluster's CPU time for both and
// its ratio, the time per kind of statement, the Node process's memory (flat in the row count: compare a run with
// --users 100000), and the floor: what the day must write, each kind of row in one bare statement on a third copy, in
// units of the same bare UPDATE (no settlement of these rules can cost less).
// Usage: tsx bench/settlement/run.ts [--users 1000000 --batch 20000 --json bench/results/settlement.json --slow MS
//   --explain MS --shared-buffers 2GB]

import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { Kysely, PostgresDialect, type RawBuilder, sql } from 'kysely'
import pg from 'pg'
import { migrate } from '../../apps/server/src/db/index.ts'
import type { DB } from '../../apps/server/src/db/schema.ts'
import { addDays } from '../../apps/server/src/lib/day.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../../apps/server/src/modules/config/defaults.ts'
import { checkInvariants } from '../../apps/server/src/modules/ledger/service.ts'
import { applyPower } from '../../apps/server/src/modules/power/service.ts'
import { settleThrough } from '../../apps/server/src/modules/settlement/service.ts'
import { postgresCluster } from '../../apps/server/test/fixtures/database.ts'
import { benchPostgres, clusterCpuMs } from '../postgres.ts'

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000000' },
    batch: { type: 'string', default: '20000' },
    json: { type: 'string' },
    /** PostgreSQL shared_buffers for the run (the throwaway cluster's default is 128MB), e.g. 2GB. */
    'shared-buffers': { type: 'string' },
    /** Print every settlement statement slower than this many ms. */
    slow: { type: 'string' },
    /**
     * Write the plans (auto_explain: EXPLAIN ANALYZE with trigger times) of the settlement's statements slower than
     * this many ms to bench/results/settlement-plans.log (the statement times then include the instrumentation).
     */
    explain: { type: 'string' },
  },
})
const users = Number(values.users)
const batchSize = Number(values.batch)
const DAY = '2026-01-31'
const DAYS = 30
const NODES = 1350

const cluster = await benchPostgres()
if (values['shared-buffers']) {
  // pg_ctl restart reuses the cluster's start options; the server binaries run as `postgres` when we are root.
  const client = new pg.Client({ connectionString: cluster.url })
  await client.connect()
  await client.query(`alter system set shared_buffers = '${values['shared-buffers'].replace(/[^0-9A-Za-z]/g, '')}'`)
  const dataDir = (await client.query<{ data_directory: string }>('show data_directory')).rows[0]?.data_directory
  await client.end()
  const pgCtl = path.join(cluster.binDir, 'pg_ctl')
  // -l: the server must not keep our pipes open (spawnSync would wait for them forever).
  const log = path.join(path.dirname(dataDir as string), 'log')
  const args = ['-D', dataDir as string, '-l', log, '-w', '-m', 'fast', 'restart']
  const asRoot = process.getuid?.() === 0
  const res = spawnSync(asRoot ? 'runuser' : pgCtl, asRoot ? ['-u', 'postgres', '--', pgCtl, ...args] : args, {
    encoding: 'utf8',
    cwd: '/tmp',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (res.status !== 0) throw new Error(`pg_ctl restart failed: ${res.stderr || res.stdout}`)
}
const { admin, urlOf: databaseUrl } = postgresCluster(cluster.url)
const slow = values.slow === undefined ? undefined : Number(values.slow)
/** Where the settlement's time goes: database time per kind of statement (recognised by a fragment of its text). */
const KINDS: [string, RegExp][] = [
  ['nodes', /user_nodes/],
  ['batch bounds', /select max\(user_id\)::text as last from/],
  ['release: records + positions', /with batch as materialized \( select id, user_id, asset, end_day/],
  ['power removal', /user_power/],
  ['referral: records (one pass)', /insert into output_records .* 'referral_reward'/],
  ['pay: create missing accounts', /insert into ledger_accounts \(user_id, asset, kind\) select null/],
  ['pay: transfers + balances', /insert into ledger_transfers/],
  ['run row, settings', /settlement_runs|set_config|set local/],
  // The live channel numbers the transaction's outbox rows (one balance message per payment) at COMMIT.
  ['commit', /^commit$/],
]
/** The profile being recorded (day 1, day 2), if any. */
let profile: Map<string, number> | undefined
const openKysely = (name: string, max = 2) =>
  new Kysely<DB>({
    log: (event) => {
      if (event.level !== 'query') return
      const text = event.query.sql.replace(/\s+/g, ' ')
      if (profile) {
        const kind = KINDS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other'
        profile.set(kind, (profile.get(kind) ?? 0) + event.queryDurationMillis)
      }
      if (slow !== undefined && event.queryDurationMillis >= slow)
        console.log(`${Math.round(event.queryDurationMillis)} ms  ${text.slice(0, 140)}`)
    },
    dialect: new PostgresDialect({
      pool: new pg.Pool({
        connectionString: databaseUrl(name),
        max,
        // Dates as 'YYYY-MM-DD' strings, as the server reads them.
        types: {
          getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
            oid === 1082 ? (v: string) => v : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
        },
      }),
    }),
  })
const seconds = (ms: number) => Number((ms / 1000).toFixed(2))
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)

/**
 * The population, generated in SQL: a random referral tree (each user under a uniformly random earlier one), one
 * 30-day stake each at ages 1…30 days (a thirtieth end today), released as if every earlier day had been settled,
 * the users' available accounts, their power and team power, 1350 nodes, and day D-1 recorded as settled.
 */
async function generate(name: string) {
  const db = openKysely(name, 1)
  const started = performance.now()
  try {
    await migrate(db)
    await db.transaction().execute(async (trx) => {
      await sql`select setseed(0.42)`.execute(trx)
      await sql`insert into assets (code, symbol, decimals) values ('PLG', 'PLG', 9), ('USDT', 'USDT', 6)`.execute(trx)
      await sql`
        insert into users (id, address, parent_id)
        select i, 'bench-' || i, case when i = 1 then null else 1 + floor(random() * (i - 1))::bigint end
        from generate_series(1, ${users}::int) i`.execute(trx)
      await sql`select setval('users_id_seq', ${users}::int)`.execute(trx)
      await sql`
        with s as (
          select i as user_id, (100 + (i::bigint * 7919) % 10000)::numeric * 1000000000 + i as amount, 1 + i % ${DAYS}::int as age
          from generate_series(1, ${users}::int) i
        ), t as (
          select user_id, amount, age, div(amount * 500000, 1000000000) as usdt_value, div(amount * 12000, 10000) as total
          from s
        )
        insert into stakes (user_id, asset, amount, price, usdt_value, days, output_bps, power_bps, power, total_output,
          released, start_day, end_day)
        select user_id, 'PLG', amount, 500000, usdt_value, ${DAYS}::int, 12000, 10000, usdt_value, total,
          div(total, ${DAYS}::int) * (age - 1), ${DAY}::date - age, ${DAY}::date - age + ${DAYS}::int
        from t order by user_id`.execute(trx)
      await sql`
        insert into ledger_accounts (user_id, asset, kind) select id, 'PLG', 'available' from users order by id`.execute(
        trx,
      )
      await applyPower(trx, sql`select user_id, power, usdt_value as performance from stakes`)
      await sql`
        insert into user_nodes (user_id, level, price_usdt, power_bonus_bps, dividend_weight, created_at)
        select 1 + (i::bigint * 104729) % ${users}::int, l.code, l.price, 1000, l.weight, ${DAY}::date - 3
        from generate_series(1, ${NODES}::int) i
        join (values (0, 'junior', 500000000, 1), (1, 'senior', 2000000000, 5), (2, 'super', 10000000000, 30))
          l(k, code, price, weight) on l.k = i % 3`.execute(trx)
      await sql`
        insert into settlement_runs (day, status, phase, summary, finished_at)
        values (${addDays(DAY, -1)}::date, 'done', 'done', ${JSON.stringify({
          pool: DEFAULT_BUSINESS_CONFIG.nodePoolDaily,
          referral: DEFAULT_BUSINESS_CONFIG.referralRewards,
          expired: { stakes: 0, finance: 0 },
        })}::jsonb, now())`.execute(trx)
    })
    await sql`vacuum analyze`.execute(db)
  } finally {
    await db.destroy()
  }
  return performance.now() - started
}

/** CPU time the cluster has used so far (ms; bench/postgres.ts), or undefined where /proc cannot tell. */
const postgresCpuMs = () => clusterCpuMs(cluster.port) ?? undefined

/** Samples the process's resident set while `work` runs, and the PostgreSQL cluster's CPU time. */
async function sampled<T>(work: () => Promise<T>) {
  let peakRss = process.memoryUsage().rss
  let peakHeap = process.memoryUsage().heapUsed
  const timer = setInterval(() => {
    const m = process.memoryUsage()
    peakRss = Math.max(peakRss, m.rss)
    peakHeap = Math.max(peakHeap, m.heapUsed)
  }, 50)
  const cpuBefore = postgresCpuMs()
  const started = performance.now()
  try {
    const result = await work()
    const ms = performance.now() - started
    const cpuAfter = postgresCpuMs()
    const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : cpuAfter - cpuBefore
    return { result, ms, cpuMs, peakRss, peakHeap }
  } finally {
    clearInterval(timer)
  }
}

/**
 * The floor: what a day must write, each kind of row in the cheapest single statement, with nothing read or computed
 * but the rows' own values — one output record per stake and per rewarded user (as many as the settlement rewarded),
 * one ledger transfer per user from `emission` and the user's balance (the balance message aside, as the payment
 * does), the expired stakes' status and their power removed up the tree (as the settlement removes it). No settlement
 * of these rules can write the day for less; the stakes' daily `released` update is left out (a stake's release could
 * be derived from its records), so the floor is what is left when that one is gone too.
 */
async function floor(db: Kysely<DB>, day: string, rewarded: number) {
  const times: Record<string, number> = {}
  const timed = async (name: string, statement: RawBuilder<unknown>) => {
    const started = performance.now()
    await db.transaction().execute(async (trx) => {
      await sql`select set_config('live.balance', 'off', true)`.execute(trx)
      await statement.execute(trx)
    })
    times[name] = performance.now() - started
  }
  await sql`insert into ledger_accounts (user_id, asset, kind) values (null, 'PLG', 'emission') on conflict do nothing`.execute(
    db,
  )
  await timed(
    'pledge output records',
    sql`insert into output_records (user_id, day, type, parent_id, asset, amount)
      select user_id, ${day}::date, 'pledge_output', id, asset, div(total_output, days) from stakes
      where status = 'mining' and start_day < ${day}::date and end_day >= ${day}::date order by id`,
  )
  await timed(
    'referral records',
    sql`insert into output_records (user_id, day, type, parent_id, asset, amount)
      select id, ${day}::date, 'referral_reward', id, 'PLG', 1 from users where id <= ${rewarded} order by id`,
  )
  await timed(
    'transfers',
    sql`insert into ledger_transfers (idempotency_key, type, asset, debit_account_id, credit_account_id, amount, reference)
      select ${`settlement:${day}:`} || lpad(a.user_id::text, 19, '0') || ':PLG', 'settlement', 'PLG', e.id, a.id, 1,
        ${`settlement:${day}`}
      from ledger_accounts a, ledger_accounts e
      where a.kind = 'available' and e.user_id is null and e.kind = 'emission' order by a.user_id`,
  )
  await timed(
    'balances',
    sql`update ledger_accounts set balance = balance + case when user_id is null then -${users}::int else 1 end`,
  )
  await timed(
    'expiry',
    sql`update stakes set status = 'expired', expired_at = now(), released = total_output
      where status = 'mining' and end_day = ${day}::date`,
  )
  const started = performance.now()
  await db
    .transaction()
    .execute((trx) =>
      applyPower(
        trx,
        sql`select user_id, -power as power, -usdt_value as performance from stakes where end_day = ${day}::date`,
      ),
    )
  times['power removal'] = performance.now() - started
  return times
}

/** The cluster's log (where auto_explain writes). */
let clusterLog: string | undefined
try {
  console.log(`generating ${users} users and stakes …`)
  await admin('create database bench_template')
  const generateMs = await generate('bench_template')
  await admin('create database bench_settle template bench_template')
  await admin('create database bench_baseline template bench_template')
  await admin('create database bench_floor template bench_template')
  if (values.explain !== undefined)
    for (const setting of [
      `session_preload_libraries = 'auto_explain'`,
      `auto_explain.log_min_duration = ${Number(values.explain)}`,
      'auto_explain.log_analyze = on',
      'auto_explain.log_triggers = on',
      'auto_explain.log_nested_statements = on',
    ])
      await admin(`alter database bench_settle set ${setting}`)
  {
    const client = new pg.Client({ connectionString: cluster.url })
    await client.connect()
    const dataDir = (await client.query<{ data_directory: string }>('show data_directory')).rows[0]?.data_directory
    await client.end()
    clusterLog = path.join(path.dirname(dataDir as string), 'log')
  }

  const rssBefore = process.memoryUsage().rss
  const db = openKysely('bench_settle')
  // Time per phase: from one committed batch to the next.
  const phases: Record<string, number> = {}
  let mark = performance.now()
  const profile1 = new Map<string, number>()
  profile = profile1
  const settlement = await sampled(() =>
    settleThrough(db, DAY, {
      product: 'PLG',
      batchSize,
      onBatch: ({ phase }) => {
        const now = performance.now()
        phases[phase] = (phases[phase] ?? 0) + (now - mark)
        mark = now
      },
    }),
  )
  profile = undefined
  const report = settlement.result
  if (report.length !== 1 || report[0]?.day !== DAY || report[0].status !== 'done')
    throw new Error(`unexpected settlement: ${JSON.stringify(report)}`)
  // The day's pledge output must be what each stake's schedule says.
  const { rows } = await sql<{ expected: string; paid: string }>`
    select
      (select sum(case when end_day = ${DAY}::date then total_output - div(total_output, days) * (days - 1)
        else div(total_output, days) end) from stakes) as expected,
      (select sum(amount) from output_records where day = ${DAY}::date and type = 'pledge_output') as paid`.execute(db)
  if (rows[0]?.expected !== rows[0]?.paid) throw new Error(`pledge output ${rows[0]?.paid} ≠ ${rows[0]?.expected}`)
  // And the day's payments must add up to its output records.
  const { rows: money } = await sql<{ recorded: string; credited: string }>`
    select (select sum(amount) from output_records where day = ${DAY}::date) as recorded,
      (select sum(amount) from ledger_transfers where reference = ${`settlement:${DAY}`}) as credited`.execute(db)
  if (money[0]?.recorded !== money[0]?.credited)
    throw new Error(`credited ${money[0]?.credited} ≠ recorded ${money[0]?.recorded}`)
  const violations = await checkInvariants(db)
  if (violations.length > 0) throw new Error(`ledger invariants broken: ${violations.slice(0, 5).join('; ')}`)
  const counts = await sql<{ transfers: string }>`select count(*) as transfers from ledger_transfers`.execute(db)
  const sharedBuffers = (await sql<{ shared_buffers: string }>`show shared_buffers`.execute(db)).rows[0]?.shared_buffers

  const baseline = openKysely('bench_baseline')
  const bareUpdate = () => sql`update stakes set released = released + 1 where status = 'mining'`.execute(baseline)
  const bare = await sampled(bareUpdate)
  const totals = Object.fromEntries((report[0]?.totals ?? []).map((t) => [t.type, t.count]))
  const floorDb = openKysely('bench_floor')
  const floor1 = await floor(floorDb, DAY, totals.referral_reward ?? 0)
  // Day 2, as in steady state: both databases vacuumed after their first day (pages with free space again, as
  // autovacuum leaves them between two daily runs), then the next day against the same bare UPDATE.
  await sql`vacuum`.execute(db)
  await sql`vacuum`.execute(baseline)
  await sql`vacuum`.execute(floorDb)
  const nextDay = addDays(DAY, 1)
  const profile2 = new Map<string, number>()
  profile = profile2
  const settlement2 = await sampled(() => settleThrough(db, nextDay, { product: 'PLG', batchSize }))
  profile = undefined
  if (settlement2.result[0]?.status !== 'done') throw new Error('day 2 not settled')
  const bare2 = await sampled(bareUpdate)
  const floor2 = await floor(floorDb, nextDay, totals.referral_reward ?? 0)
  const violations2 = await checkInvariants(db)
  if (violations2.length > 0) throw new Error(`ledger invariants broken: ${violations2.slice(0, 5).join('; ')}`)
  await db.destroy()
  await baseline.destroy()
  await floorDb.destroy()

  const floorUnits = (times: Record<string, number>, unit: number) =>
    Number((Object.values(times).reduce((a, b) => a + b, 0) / unit).toFixed(2))
  const figures = {
    users,
    'settlement s': seconds(settlement.ms),
    'bare UPDATE s': seconds(bare.ms),
    ratio: Number((settlement.ms / bare.ms).toFixed(2)),
    target: '≤ 3',
    'day 2: settlement s': seconds(settlement2.ms),
    'day 2: bare UPDATE s': seconds(bare2.ms),
    'day 2: ratio': Number((settlement2.ms / bare2.ms).toFixed(2)),
    'PostgreSQL CPU s: settlement': seconds(settlement.cpuMs),
    'PostgreSQL CPU s: bare UPDATE': seconds(bare.cpuMs),
    'CPU ratio': Number((settlement.cpuMs / bare.cpuMs).toFixed(2)),
    'day 2: CPU ratio': Number((settlement2.cpuMs / bare2.cpuMs).toFixed(2)),
    'floor (bare UPDATEs)': floorUnits(floor1, bare.ms),
    'day 2: floor (bare UPDATEs)': floorUnits(floor2, bare2.ms),
    'pledge outputs': totals.pledge_output ?? 0,
    'referral rewards': totals.referral_reward ?? 0,
    'node dividends': totals.node_dividend ?? 0,
    'expired stakes': report[0]?.expired.stakes ?? 0,
    'ledger transfers': Number(counts.rows[0]?.transfers),
    'RSS before MB': mb(rssBefore),
    'peak RSS during settlement MB': mb(settlement.peakRss),
    'peak heap during settlement MB': mb(settlement.peakHeap),
    'maxRSS MB': Math.round(process.resourceUsage().maxRSS / 1024),
  }
  console.log(
    `\nbench/settlement — PostgreSQL, shared_buffers ${sharedBuffers}, ` +
      `${users} users and stakes, batches of ${batchSize} ` +
      `(generated in ${seconds(generateMs)} s)`,
  )
  console.table(figures)
  console.log('seconds per phase')
  console.table(Object.fromEntries(Object.entries(phases).map(([phase, ms]) => [phase, seconds(ms)])))
  const perKind = (recorded: Map<string, number>, unit: number) =>
    Object.fromEntries(
      [...recorded].map(([kind, ms]) => [kind, { s: seconds(ms), 'bare UPDATEs': Number((ms / unit).toFixed(2)) }]),
    )
  console.log('database seconds per kind of statement, and in units of the bare UPDATE: day 1')
  console.table(perKind(profile1, bare.ms))
  console.log('day 2')
  console.table(perKind(profile2, bare2.ms))
  console.log(
    'the floor: what the day must write, each kind in one bare statement (seconds, bare UPDATEs), day 1 | day 2',
  )
  console.table(
    Object.fromEntries(
      Object.entries(floor1).map(([kind, ms]) => {
        const ms2 = floor2[kind] ?? 0
        return [
          kind,
          {
            s: seconds(ms),
            'bare UPDATEs': Number((ms / bare.ms).toFixed(2)),
            'day 2 s': seconds(ms2),
            'day 2 bare UPDATEs': Number((ms2 / bare2.ms).toFixed(2)),
          },
        ]
      }),
    ),
  )
  if (values.json) {
    fs.mkdirSync(path.dirname(values.json), { recursive: true })
    const perPhase = Object.fromEntries(Object.entries(phases).map(([phase, ms]) => [phase, seconds(ms)]))
    const inSeconds = (recorded: Map<string, number>) =>
      Object.fromEntries([...recorded].map(([kind, ms]) => [kind, seconds(ms)]))
    const result = {
      date: new Date().toISOString(),
      batchSize,
      sharedBuffers,
      ...figures,
      'phase seconds': perPhase,
      'statement seconds': inSeconds(profile1),
      'day 2: statement seconds': inSeconds(profile2),
      'floor seconds': Object.fromEntries(Object.entries(floor1).map(([kind, ms]) => [kind, seconds(ms)])),
      'day 2: floor seconds': Object.fromEntries(Object.entries(floor2).map(([kind, ms]) => [kind, seconds(ms)])),
    }
    fs.writeFileSync(values.json, JSON.stringify(result, null, 2))
  }
} finally {
  if (values.explain !== undefined && clusterLog && fs.existsSync(clusterLog)) {
    const plans = path.join('bench', 'results', 'settlement-plans.log')
    fs.mkdirSync(path.dirname(plans), { recursive: true })
    // The log belongs to the cluster's user (mode 0600): a readable copy.
    fs.writeFileSync(plans, fs.readFileSync(clusterLog))
    console.log(`plans: ${plans}`)
  }
  cluster.stop()
}
