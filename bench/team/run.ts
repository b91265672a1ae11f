// bench/team: team figures at scale on a throwaway PostgreSQL. Builds a 1,000,000-user referral tree under one leader
// (a random tree with the leader's own direct members first, and a 10,000-deep chain hanging from it), then measures,
// against a single indexed primary-key read on the same database in the same run:
// - the leader's team read (modules/team teamIndex: the maintained aggregates and the direct members' rows);
// - a bind at the bottom of the chain (insert + bindMember: +1 member for 10,000+ ancestors);
// - a stake at the bottom of the chain (stakeFromBalance: stake row, ledger transfer, power for every ancestor).
// Targets: leader's read ≤ 3× the primary-key read; a stake at depth 10,000 ≤ 50 ms. After the run the leader's
// figures are checked against a set-based recount.
// Usage: tsx bench/team/run.ts [--users 1000000 --chain 10000 --directs 100 --samples 2000 --writes 50
//        --json bench/results/team.json]

import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { migrate } from '../../apps/server/src/db/index.ts'
import type { DB } from '../../apps/server/src/db/schema.ts'
import { seedBusinessConfig } from '../../apps/server/src/modules/config/service.ts'
import { systemAccount, transfer, userAccount } from '../../apps/server/src/modules/ledger/service.ts'
import { pledgeConfig, stakeFromBalance, stakeTerms } from '../../apps/server/src/modules/pledge/service.ts'
import { bindMember, teamIndex } from '../../apps/server/src/modules/team/service.ts'
import { postgresCluster } from '../../apps/server/test/fixtures/database.ts'
import { benchPostgres } from '../postgres.ts'

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000000' },
    chain: { type: 'string', default: '10000' },
    directs: { type: 'string', default: '100' },
    samples: { type: 'string', default: '2000' },
    writes: { type: 'string', default: '50' },
    json: { type: 'string' },
  },
})
const users = Number(values.users)
const chain = Number(values.chain)
const directs = Number(values.directs)
const samples = Number(values.samples)
const writes = Number(values.writes)
const LEADER = '1'
const PLG_UNIT = 1_000_000_000n

const cluster = (await benchPostgres()) as { url: string; stop: () => void }
const { admin, urlOf: databaseUrl } = postgresCluster(cluster.url)
const ms = (n: number) => Number(n.toFixed(3))

/** p50 / p99 / mean of `n` runs of `work`, after `warm` unmeasured ones. */
async function measure(n: number, work: (i: number) => Promise<unknown>, warm = Math.min(20, n)) {
  for (let i = 0; i < warm; i++) await work(-1 - i)
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    await work(i)
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number
  return { p50: at(0.5), p99: at(0.99), mean: times.reduce((a, b) => a + b, 0) / times.length }
}

/**
 * The tree: user 1 the leader; users 2 … directs+1 its direct members; the rest of the random part each under a
 * uniformly random earlier user; then the chain, each under the one before, starting under user 2. Inserted in id
 * order in one statement, so the users_place_in_tree trigger fills depth and ancestor segments from the parents
 * exactly as it does for every bind. Team figures are then aggregated bottom-up level by level (set-based) and every
 * user gets personal power and performance; the check at the end recounts the leader's figures independently.
 */
async function generate(db: Kysely<DB>) {
  const randomPart = users - chain
  let mark = performance.now()
  const step = (what: string) => {
    const now = performance.now()
    console.log(`  ${what}: ${((now - mark) / 1000).toFixed(1)} s`)
    mark = now
  }
  await migrate(db)
  await sql`insert into assets (code, symbol, decimals) values ('PLG', 'PLG', 9), ('USDT', 'USDT', 6)`.execute(db)
  await seedBusinessConfig(db)
  await sql`select setseed(0.17)`.execute(db)
  await sql`
    insert into users (id, address, parent_id)
    select i, 'bench-' || i,
      case when i = 1 then null
        when i <= ${directs + 1}::int then 1
        when i <= ${randomPart}::int then 1 + floor(random() * (i - 1))::bigint
        when i = ${randomPart + 1}::int then 2
        else i - 1 end
    from generate_series(1, ${users}::int) i
    order by i`.execute(db)
  step('users inserted')
  await sql`select setval('users_id_seq', ${users}::int)`.execute(db)
  // Personal figures: 1 … 1000 USDT staked at 100% power (USDT base units).
  await sql`
    create unlogged table bench_agg as
    select id, parent_id, depth, ((id * 7919) % 1000 + 1) * 1000000::numeric as own,
      0::numeric as team, 0::bigint as members
    from users`.execute(db)
  await sql`create index on bench_agg (depth)`.execute(db)
  await sql`create index on bench_agg (id)`.execute(db)
  await sql`analyze bench_agg`.execute(db)
  await sql`
    do $$
    declare d integer;
    begin
      for d in reverse (select max(depth) from bench_agg) .. 1 loop
        update bench_agg p set team = p.team + s.team, members = p.members + s.members
        from (select parent_id, sum(own + team) as team, sum(members + 1) as members
              from bench_agg where depth = d group by parent_id) s
        where p.id = s.parent_id;
      end loop;
    end $$`.execute(db)
  step('team figures aggregated')
  await sql`
    insert into user_power (user_id, personal_power, team_power, performance, team_performance, team_count, direct_count)
    select a.id, a.own, a.team, a.own, a.team, a.members, coalesce(c.n, 0)
    from bench_agg a left join (select parent_id, count(*) as n from users group by parent_id) c on c.parent_id = a.id
    order by a.id
    on conflict (user_id) do update set personal_power = excluded.personal_power, team_power = excluded.team_power,
      performance = excluded.performance, team_performance = excluded.team_performance,
      team_count = excluded.team_count, direct_count = excluded.direct_count`.execute(db)
  step('user_power written')
  await sql`drop table bench_agg`.execute(db)
  await sql`vacuum analyze`.execute(db)
  step('vacuum analyze')
}

const pool = new pg.Pool({ connectionString: databaseUrl('bench_team'), max: 4 })
const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })

/** The power change of one user as applyPower made it before ancestor segments: one recursive step per level. */
const PARENT_WALK = `
  with recursive delta as (select $1::bigint as user_id, $2::numeric as power, $3::numeric as performance),
  up(ancestor_id, power, performance) as (
    select u.parent_id, d.power, d.performance from delta d join users u on u.id = d.user_id where u.parent_id is not null
    union all
    select u.parent_id, up.power, up.performance from up join users u on u.id = up.ancestor_id
    where u.parent_id is not null
  ), merged as (
    select user_id, sum(pp) as pp, sum(tp) as tp, sum(pf) as pf, sum(tf) as tf from (
      select user_id, power as pp, 0 as tp, performance as pf, 0 as tf from delta
      union all
      select ancestor_id, 0, power, 0, performance from up
    ) x group by user_id
  )
  insert into user_power (user_id, personal_power, team_power, performance, team_performance)
  select user_id, pp, tp, pf, tf from merged order by user_id
  on conflict (user_id) do update set
    personal_power = user_power.personal_power + excluded.personal_power,
    team_power = user_power.team_power + excluded.team_power,
    performance = user_power.performance + excluded.performance,
    team_performance = user_power.team_performance + excluded.team_performance`
try {
  console.log(`generating ${users} users (chain of ${chain}) …`)
  await admin('create database bench_team')
  const started = performance.now()
  await generate(db)
  const generateSeconds = (performance.now() - started) / 1000
  const bottom = String(users)
  const depth = await db.selectFrom('users').select('depth').where('id', '=', bottom).executeTakeFirstOrThrow()
  const leader = await db.selectFrom('user_power').selectAll().where('user_id', '=', LEADER).executeTakeFirstOrThrow()

  // Baseline: one indexed primary-key read (the leader's own row), the same statement shape the team read starts from.
  const pk = await measure(samples, () =>
    db.selectFrom('user_power').selectAll().where('user_id', '=', LEADER).executeTakeFirstOrThrow(),
  )
  const read = await measure(samples, () => teamIndex(db, { id: LEADER, address: 'bench-1' }))

  // Binds at the bottom of the chain: siblings under the deepest user, each counted by all its ancestors.
  const bind = await measure(writes, (i) =>
    db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('users')
        .values({ address: `bench-bind-${i}`, parent_id: bottom })
        .returning('id')
        .executeTakeFirstOrThrow()
      await bindMember(trx, row.id)
    }),
  )

  // Stakes by the deepest user: the whole stakeFromBalance transaction.
  const config = await pledgeConfig(db, 'PLG')
  const terms = stakeTerms(config, BigInt(config.min_amount), config.periods[0]?.days ?? 30)
  await db.transaction().execute(async (trx) =>
    transfer(trx, {
      debit: await systemAccount(trx, 'PLG', 'chain'),
      credit: await userAccount(trx, bottom, 'PLG', 'available'),
      asset: 'PLG',
      amount: terms.amount * BigInt(writes + 50),
      type: 'deposit',
      key: randomUUID(),
    }),
  )
  const stakePower = (BigInt(config.min_amount) * BigInt(config.price)) / PLG_UNIT
  const stake = await measure(writes, () =>
    db
      .transaction()
      .execute((trx) => stakeFromBalance(trx, { userId: bottom, asset: 'PLG', decimals: 9, terms: terms })),
  )

  // For comparison, the same power change applied as before ancestor segments: a recursive walk parent by parent and
  // the rows grouped per user (the earlier applyPower), rolled back so the figures stay those of the real stakes.
  const parentWalk = await measure(Math.min(writes, 20), async () => {
    const client = await pool.connect()
    try {
      await client.query('begin')
      await client.query(PARENT_WALK, [bottom, stakePower.toString(), stakePower.toString()])
    } finally {
      await client.query('rollback')
      client.release()
    }
  })

  // Check: the leader's figures against an independent set-based recount, after all the binds and stakes.
  const after = await teamIndex(db, { id: LEADER, address: 'bench-1' })
  const { rows } = await sql<{ members: string; power: string; performance: string }>`
    select count(*) as members, sum(p.personal_power) as power, sum(p.performance) as performance
    from users u join user_power p on p.user_id = u.id where u.id <> 1`.execute(db)
  const recount = rows[0]
  if (
    String(after.team_count) !== recount?.members ||
    after.team_power !== recount.power ||
    after.team_performance !== recount.performance
  )
    throw new Error(`leader figures ${JSON.stringify(after)} ≠ recount ${JSON.stringify(recount)}`)
  const figures = {
    'pk read p50 ms': ms(pk.p50),
    'pk read p99 ms': ms(pk.p99),
    'leader team read p50 ms': ms(read.p50),
    'leader team read p99 ms': ms(read.p99),
    'read ratio p50': Number((read.p50 / pk.p50).toFixed(2)),
    'read target': '≤ 3',
    [`bind at depth ${depth.depth + 1} p50 ms`]: ms(bind.p50),
    'bind p99 ms': ms(bind.p99),
    [`stake at depth ${depth.depth} p50 ms`]: ms(stake.p50),
    'stake p99 ms': ms(stake.p99),
    'stake target': '≤ 50 ms',
    'same change by parent-by-parent walk p50 ms': ms(parentWalk.p50),
    'peak RSS MB': Math.round(process.resourceUsage().maxRSS / 1024),
  }
  console.log(
    `\nbench/team — PostgreSQL, ${users} users under the leader (${leader.direct_count} direct, chain of ${chain}), ` +
      `${samples} reads, ${writes} binds and stakes (generated in ${generateSeconds.toFixed(0)} s; ` +
      `each stake adds ${stakePower} power to ${depth.depth} ancestors)`,
  )
  console.table(figures)
  if (values.json) {
    fs.mkdirSync(path.dirname(values.json), { recursive: true })
    const result = { date: new Date().toISOString(), users, chain, directs: Number(leader.direct_count), ...figures }
    fs.writeFileSync(values.json, JSON.stringify(result, null, 2))
  }
} finally {
  await db.destroy()
  cluster.stop()
}
