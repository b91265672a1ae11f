// bench/ledger: ledger transfers per second on a throwaway PostgreSQL, against pgbench's TPC-B-like transaction
// (BEGIN, 3 UPDATEs, SELECT, INSERT, END: 7 round trips) on the same cluster in the same run. Each ledger transfer is
// its own transaction through the server's database driver (db/transient.ts, with its commit-outcome check): one call
// of ledger_transfer (insert the transfer, update the two balances in account id order, return the transaction's id)
// with the BEGIN sent before it in the same write (db/pg-driver.ts), then COMMIT: two round trips. The two halves run in
// `--rounds` alternating stretches (transfers, then pgbench, each duration/rounds seconds), so that both see the
// shared machine in the same moments, and their totals are compared. Also prints the CPU time per transaction of each:
// this process and the cluster per transfer, pgbench's client and the cluster per pgbench transaction.
// The users are not in the app: nobody listens to their live topics, so their balance changes write no message
// (migration 0033-live-unheard); `--listened` counts an instance in on every user's topic, as if all were in the app.
// Usage: tsx bench/ledger/run.ts [--duration 10 --rounds 5 --workers 16 --users 1000 --scale 10 --listened
//   --json bench/results/ledger.json]

import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { postgresCluster } from '../../apps/server/test/fixtures/database.ts'
import { benchPostgres, clusterCpuMs, ticksPerSecond } from '../postgres.ts'
import { cpuPerTransfer, openTransfers } from './transfers.ts'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    /** Stretches of each half, alternated: transfers, pgbench, transfers, … (duration/rounds seconds each). */
    rounds: { type: 'string', default: '5' },
    workers: { type: 'string', default: '16' },
    users: { type: 'string', default: '1000' },
    /** pgbench's scale factor (-s: 100,000 accounts each). */
    scale: { type: 'string', default: '10' },
    listened: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
})
const duration = Number(values.duration)
// pgbench's -T takes whole seconds: at most one stretch per second of the duration.
const rounds = Math.max(1, Math.min(Math.floor(Number(values.rounds)), Math.floor(duration)))
const slice = Math.max(1, Math.round(duration / rounds))
const workers = Number(values.workers)
const users = Number(values.users)

const cluster = await benchPostgres()
const { admin, urlOf: databaseUrl } = postgresCluster(cluster.url)
const createDatabase = (name: string) => admin(`create database ${name}`)

/** pgbench from the cluster's own binaries; the server binaries refuse root, so it runs as `postgres` then. */
function pgbench(args: string[]) {
  const bin = path.join(cluster.binDir, 'pgbench')
  const argv = [...args, '-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres', 'pgbench']
  const asRoot = process.getuid?.() === 0
  const res = spawnSync(asRoot ? 'runuser' : bin, asRoot ? ['-u', 'postgres', '--', bin, ...argv] : argv, {
    encoding: 'utf8',
    cwd: '/tmp',
  })
  if (res.status !== 0) throw new Error(`pgbench ${args.join(' ')} failed: ${res.stderr || res.stdout}`)
  return res.stdout
}

/** CPU time (ms) of this process's children that ended and were waited for (pgbench, through runuser): /proc. */
function childrenCpuMs(): number | null {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
    // cutime and cstime (fields 16 and 17 of the line, counted from 1), in clock ticks.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond
  } catch {
    return null
  }
}

try {
  await createDatabase('ledger_bench')
  const transfers = await openTransfers({
    url: databaseUrl('ledger_bench'),
    workers,
    users,
    listened: values.listened,
    clusterCpuMs: () => clusterCpuMs(cluster.port),
  })
  await createDatabase('pgbench')
  pgbench(['-i', '-q', '-s', String(Number(values.scale))])
  const result = { made: 0, refused: 0, seconds: 0, nodeMs: 0, postgresMs: 0 as number | null }
  const bench = { transactions: 0, seconds: 0, clientMs: 0 as number | null, postgresMs: 0 as number | null }
  const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b)
  try {
    for (let round = 0; round < rounds; round++) {
      const stretch = await transfers.run(slice)
      result.made += stretch.made
      result.refused += stretch.refused
      result.seconds += stretch.seconds
      result.nodeMs += stretch.nodeMs
      result.postgresMs = add(result.postgresMs, stretch.postgresMs)
      const [client0, cluster0] = [childrenCpuMs(), clusterCpuMs(cluster.port)]
      const output = pgbench(['-c', '16', '-j', '2', '-T', String(slice)])
      const [client1, cluster1] = [childrenCpuMs(), clusterCpuMs(cluster.port)]
      const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1])
      const processed = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1])
      if (!Number.isFinite(tps) || !Number.isFinite(processed) || tps <= 0)
        throw new Error(`no tps in pgbench output:\n${output}`)
      bench.transactions += processed
      bench.seconds += processed / tps
      bench.clientMs = add(bench.clientMs, client0 === null || client1 === null ? null : client1 - client0)
      bench.postgresMs = add(bench.postgresMs, cluster0 === null || cluster1 === null ? null : cluster1 - cluster0)
    }
    await transfers.check()
  } finally {
    await transfers.close()
  }
  const transfersPerSecond = result.made / result.seconds
  const tps = bench.transactions / bench.seconds
  const cpu = cpuPerTransfer(result)
  const pgbenchCpu = cpuPerTransfer({
    made: bench.transactions,
    nodeMs: bench.clientMs ?? 0,
    postgresMs: bench.postgresMs,
  })

  const figures = {
    'ledger transfers/s': Math.round(transfersPerSecond),
    'pgbench tps': Math.round(tps),
    ratio: Number((transfersPerSecond / tps).toFixed(3)),
    target: '≥ 1.0',
    'node µs/transfer': cpu.node,
    'postgres µs/transfer': cpu.postgres ?? '—',
    'pgbench client µs/transaction': bench.clientMs === null ? '—' : pgbenchCpu.node,
    'postgres µs/pgbench transaction': pgbenchCpu.postgres ?? '—',
    'peak RSS MB': Math.round(process.resourceUsage().maxRSS / 1024),
  }
  console.log(
    `\nbench/ledger — PostgreSQL, ${workers} workers, ${users} users${values.listened ? ' (listened to)' : ''}, ${duration}s in ${rounds} ` +
      `stretches alternated with pgbench -s ${values.scale} -c 16 -j 2 -T ${slice} ` +
      `(${result.made} transfers, ${result.refused} refused)`,
  )
  console.table(figures)
  if (values.json) {
    fs.mkdirSync(path.dirname(values.json), { recursive: true })
    fs.writeFileSync(
      values.json,
      JSON.stringify(
        { date: new Date().toISOString(), duration, rounds, workers, users, listened: values.listened, ...figures },
        null,
        2,
      ),
    )
  }
} finally {
  cluster.stop()
}
