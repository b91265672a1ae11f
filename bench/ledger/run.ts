// bench/ledger: ledger transfers per second on a throwaway PostgreSQL, against pgbench's TPC-B-like transaction
// (BEGIN, 3 UPDATEs, SELECT, INSERT, END: 7 round trips) on the same cluster in the same run. Each ledger transfer is
// its own transaction through the server's database driver (db/transient.ts, with its commit-outcome check): one call
// of ledger_transfer (insert the transfer, update the two balances in account id order, return the transaction's id)
// with the BEGIN sent before it in the same write (db/pg-driver.ts), then COMMIT: two round trips. Also prints the CPU
// time per transfer of this process and of the cluster.
// The users are not in the app: nobody listens to their live topics, so their balance changes write no message
// (migration 0033-live-unheard); `--listened` counts an instance in on every user's topic, as if all were in the app.
// Usage: tsx bench/ledger/run.ts [--duration 10 --workers 16 --users 1000 --scale 10 --listened
//   --json bench/results/ledger.json]

import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { postgresCluster } from '../../apps/server/test/fixtures/database.ts'
import { benchPostgres, clusterCpuMs } from '../postgres.ts'
import { measureTransfers } from './transfers.ts'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    workers: { type: 'string', default: '16' },
    users: { type: 'string', default: '1000' },
    /** pgbench's scale factor (-s: 100,000 accounts each). */
    scale: { type: 'string', default: '10' },
    listened: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
})
const duration = Number(values.duration)
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

try {
  await createDatabase('ledger_bench')
  const result = await measureTransfers({
    url: databaseUrl('ledger_bench'),
    workers,
    users,
    seconds: duration,
    listened: values.listened,
    clusterCpuMs: () => clusterCpuMs(cluster.port),
  })
  await createDatabase('pgbench')
  pgbench(['-i', '-q', '-s', String(Number(values.scale))])
  const output = pgbench(['-c', '16', '-j', '2', '-T', String(duration)])
  const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1])
  if (!Number.isFinite(tps)) throw new Error(`no tps in pgbench output:\n${output}`)

  const figures = {
    'ledger transfers/s': Math.round(result.tps),
    'pgbench tps': Math.round(tps),
    ratio: Number((result.tps / tps).toFixed(3)),
    target: '≥ 1.0',
    'node µs/transfer': result.cpu.node,
    'postgres µs/transfer': result.cpu.postgres ?? '—',
    'peak RSS MB': Math.round(process.resourceUsage().maxRSS / 1024),
  }
  console.log(
    `\nbench/ledger — PostgreSQL, ${workers} workers, ${users} users${values.listened ? ' (listened to)' : ''}, ${duration}s; pgbench -s ${values.scale} -c 16 -j 2 ` +
      `(${result.made} transfers, ${result.refused} refused)`,
  )
  console.table(figures)
  if (values.json) {
    fs.mkdirSync(path.dirname(values.json), { recursive: true })
    fs.writeFileSync(
      values.json,
      JSON.stringify(
        { date: new Date().toISOString(), duration, workers, users, listened: values.listened, ...figures },
        null,
        2,
      ),
    )
  }
} finally {
  cluster.stop()
}
