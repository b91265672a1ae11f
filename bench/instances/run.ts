// Several instances under faults, at a larger load (docs/benchmarks.md "bench/instances"): the setup
// of apps/server/test/faults/instances.test.ts — server processes on one PostgreSQL (a throwaway cluster) and the
// local chain, behind a round-robin TCP proxy on loopback — measured three times on fresh users: the mixed load through
// one instance (the baseline), through two, and through two while every database connection is terminated, one
// instance is SIGKILLed and restarted, and the connections are terminated again. Reports throughput, the errors each
// fault caused, the time to recover, and the checks (deposits credited once, withdrawals paid once, ledger sound).
// Per phase it reports where the machine's CPU went during the load: each instance, PostgreSQL, this process (the
// users, the proxy and the local chain: the load generator), other work, idle. With --instance-cpu N each server
// process runs in a CPU control group of its own capped at N cores (bench/cpu.ts): each instance stands for a machine
// of its own with that much CPU, while PostgreSQL and the generator run uncapped on the rest of the cores; and what the
// instances' database sessions did (running, waiting on a lock and behind which statement, in a transaction waiting
// for their instance), the trade batches, and how long the users waited for each kind of request. Each phase's users
// have their wallets funded before its clock starts.
// --warmup N sends N users through both instances before each of the first two phases (not counted); --job-instance
// runs the intent watcher and the withdrawal sender on a third (capped) instance outside the proxy instead of on every
// instance; --chain-process runs the local chain in a process of its own instead of on this process's main thread
// with the users.
//   npm run bench:instances -- --users 30 --rounds 4 --between 300
//   npm run bench:instances -- --users 100 --rounds 8 --instance-cpu 0.3 --warmup 100 [--job-instance] [--chain-process]
import os from 'node:os'
import { type EventLoopUtilization, monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import {
  audit,
  type Cluster,
  fundUsers,
  ready,
  runLoad,
  settled,
  startCluster,
  Tally,
} from '../../apps/server/test/fixtures/instances.ts'
import { buildServerBundle } from '../../apps/server/test/fixtures/server-bundle.ts'
import { type CpuGroup, cpuQuotas, machineCpuMs, processCpuMs } from '../cpu.ts'
import { clusterCpuMs } from '../postgres.ts'

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '4' },
    /** Requests answered before each fault and after the last (the load the faults fall into). */
    between: { type: 'string', default: '300' },
    /** Cores each server instance may use (a CPU control group per instance); unset: no cap. */
    'instance-cpu': { type: 'string' },
    /**
     * A third instance, outside the proxy, runs the intent watcher and the withdrawal sender; the two measured run
     * neither (by default every instance runs every job, as in production).
     */
    'job-instance': { type: 'boolean', default: false },
    /**
     * The local chain in a process of its own (as a real chain's RPC is): by default it runs here, where each
     * transaction it executes holds up the users' requests that share this process's main thread.
     */
    'chain-process': { type: 'boolean', default: false },
    /**
     * Users (one round each) sent through both instances before the first phase and again before the second, not
     * counted: without it the second instance meets its first requests in the phase with two (its code paths not yet
     * compiled and optimised), while the first ran the whole first phase; and an instance left idle through the first
     * phase spends more per request in the first seconds of the second (measured: 0.27–0.29 core against 0.22–0.24 for
     * the same requests, whichever of the two it is).
     */
    warmup: { type: 'string', default: '0' },
    /** The period over which the cap is enforced (ms). */
    'cpu-period-ms': { type: 'string', default: '100' },
  },
})
const between = Number(values.between)
const load = { users: Number(values.users), rounds: Number(values.rounds) }
const jobInstance = values['job-instance']
const instanceCpu = values['instance-cpu'] === undefined ? undefined : Number(values['instance-cpu'])
if (instanceCpu !== undefined && !(instanceCpu > 0)) {
  console.error(`--instance-cpu takes a positive number of cores (e.g. 0.3), not ${values['instance-cpu']}`)
  process.exit(2)
}

/** Where the CPU went so far: each instance, PostgreSQL, this process, the whole machine (ms). */
interface CpuSample {
  at: number
  instances: { pid: number | undefined; cpuMs: number; periods: number; throttled: number; throttledMs: number }[]
  postgres: number | null
  /** The local chain's process (--chain-process). */
  chain: number | null
  generator: number
  /**
   * This process's main event loop: the users' requests and (without --chain-process) the local chain share it; the
   * proxy runs in a worker thread (its CPU is in `generator`, not here).
   */
  loop: EventLoopUtilization
  machine: { busy: number; idle: number } | null
}

/** This process's event loop delay, reset at each phase's first sample. */
const loopDelay = monitorEventLoopDelay({ resolution: 10 })
loopDelay.enable()

function sampleCpu(cluster: Cluster): CpuSample {
  const usage = process.cpuUsage()
  return {
    at: performance.now(),
    instances: cluster.instances.map((instance, i) => {
      const pid = instance.child?.pid
      const group = quotas?.groups[i]
      const capped = group?.usage()
      // Without cgroup accounting, the process's own times: those of a process killed since the last sample are lost.
      const own = pid === undefined ? null : processCpuMs(pid)
      const cpuMs = capped && Number.isFinite(capped.cpuMs) ? capped.cpuMs : (own ?? Number.NaN)
      return { pid, periods: 0, throttled: 0, throttledMs: 0, ...capped, cpuMs }
    }),
    postgres: clusterCpuMs(Number(new URL(cluster.databaseUrl).port || 5432)),
    chain: cluster.localnet.pid === undefined ? null : processCpuMs(cluster.localnet.pid),
    generator: (usage.user + usage.system) / 1000,
    loop: performance.eventLoopUtilization(),
    machine: machineCpuMs(),
  }
}

/** The cores each used between two samples, as one line. */
function cpuLine(before: CpuSample, after: CpuSample) {
  const ms = after.at - before.at
  const cores = (cpuMs: number) => (cpuMs / ms).toFixed(2)
  let accounted = after.generator - before.generator
  const parts = after.instances.map((a, i) => {
    const b = before.instances[i] as CpuSample['instances'][number]
    // A restarted instance without a control group: only its new process's time is known.
    const used = a.pid === b.pid || quotas ? a.cpuMs - b.cpuMs : a.cpuMs
    accounted += used
    let part = `${i === 2 ? 'job instance' : `instance ${i + 1}`} ${cores(used)}${a.pid !== b.pid && !quotas ? ' (since its restart)' : ''}`
    const periods = a.periods - b.periods
    if (quotas && periods > 0)
      part +=
        ` (capped at ${instanceCpu}: throttled in ${(((a.throttled - b.throttled) / periods) * 100).toFixed(0)} %` +
        ` of its ${periods} periods, held back ${((a.throttledMs - b.throttledMs) / 1000).toFixed(1)} s)`
    return part
  })
  if (after.postgres !== null && before.postgres !== null) {
    accounted += after.postgres - before.postgres
    parts.push(`PostgreSQL ${cores(after.postgres - before.postgres)}`)
  }
  if (after.chain !== null && before.chain !== null) {
    accounted += after.chain - before.chain
    parts.push(`local chain ${cores(after.chain - before.chain)}`)
  }
  // One thread sends every request and reads every answer: near full, requests wait in it, not in a server.
  const loop = performance.eventLoopUtilization(after.loop, before.loop)
  parts.push(
    `this process (users, proxy${after.chain === null ? ', local chain' : ''}) ` +
      `${cores(after.generator - before.generator)} (its main event loop busy ` +
      `${(loop.utilization * 100).toFixed(0)} %, delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms)`,
  )
  let warning = ''
  if (after.machine && before.machine) {
    const other = Math.max(0, after.machine.busy - before.machine.busy - accounted)
    const idle = after.machine.idle - before.machine.idle
    parts.push(`other ${cores(other)}`)
    parts.push(`idle ${cores(idle)}`)
    // Under a quota an instance gets at most its share, but no less only if the machine has it to give.
    if (other / ms > 0.1 && idle / ms < 0.2)
      warning = '\n  (other work took the machine meanwhile: this phase measured the machine, not the server)'
  }
  return `  CPU during the load (cores of ${os.cpus().length}): ${parts.join(', ')}${warning}`
}

/**
 * What the instances' database sessions were doing, sampled every 100 ms through the load (pg_stat_activity): running
 * a statement, waiting on a lock (by the statement that waits: which hot row or lock serialises them), in a transaction
 * waiting for its instance (a CPU-capped instance holds its locks while it is held back), or idle in the pool.
 */
function watchSessions(cluster: Cluster) {
  const counts = new Map<string, number>()
  let samples = 0
  let busy = false
  const timer = setInterval(async () => {
    if (busy) return
    busy = true
    try {
      // A session waiting on a lock, with the last statement of the transaction holding it.
      const { rows } = await sql<{ state: string | null; wait: string | null; query: string; holder: string | null }>`
        select a.state, a.wait_event_type as wait, left(regexp_replace(a.query, '[[:space:]]+', ' ', 'g'), 60) as query,
          (select left(regexp_replace(b.query, '[[:space:]]+', ' ', 'g'), 60) from pg_stat_activity b
            where a.wait_event_type = 'Lock' and b.pid = (pg_blocking_pids(a.pid))[1]) as holder
        from pg_stat_activity a
        where a.datname = current_database() and a.backend_type = 'client backend' and a.application_name <> 'checker'`.execute(
        cluster.db,
      )
      samples++
      for (const row of rows) {
        const key =
          row.state === 'active' && row.wait === 'Lock'
            ? `lock: "${row.query}", held by one whose last statement is "${row.holder}"`
            : row.state === 'active'
              ? 'running'
              : row.state === 'idle in transaction'
                ? 'in a transaction, waiting for its instance'
                : 'idle'
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
    } catch {
    } finally {
      busy = false
    }
  }, 100)
  return () => {
    clearInterval(timer)
    const mean = (n: number) => (n / Math.max(1, samples)).toFixed(2)
    const locks = [...counts].filter(([key]) => key.startsWith('lock: ')).sort((a, b) => b[1] - a[1])
    const waiting = locks.reduce((sum, [, n]) => sum + n, 0)
    return (
      `  database sessions of the instances (mean of ${samples} samples): ` +
      `${mean(counts.get('running') ?? 0)} running, ${mean(waiting)} waiting on a lock, ` +
      `${mean(counts.get('in a transaction, waiting for its instance') ?? 0)} in a transaction waiting for ` +
      `their instance, ${mean(counts.get('idle') ?? 0)} idle` +
      locks
        .slice(0, 5)
        .map(([key, n]) => `\n    ${mean(n)} waiting in ${key.slice(6)}`)
        .join('')
    )
  }
}

/** Batches the quick-trade markets have committed so far (each moves its market's seq by one). */
async function tradeBatches(cluster: Cluster) {
  const row = await cluster.db
    .selectFrom('trade_markets')
    .select(sql<string>`coalesce(sum(seq), 0)`.as('seq'))
    .executeTakeFirstOrThrow()
  return Number(row.seq)
}

async function measure(cluster: Cluster, label: string, faults?: (tally: Tally) => Promise<void>) {
  const tally = new Tally()
  // The users' wallets are funded before the clock starts: the faucet is the chain's work, not the instances'.
  const users = await fundUsers(cluster, load.users)
  const sessions = watchSessions(cluster)
  const batchesBefore = await tradeBatches(cluster)
  const cpuBefore = sampleCpu(cluster)
  loopDelay.reset()
  const started = Date.now()
  let faultsDone = !faults
  const faulted = faults?.(tally).finally(() => {
    faultsDone = true
  })
  const record = await runLoad(cluster, tally, users, { rounds: load.rounds, more: () => !faultsDone })
  const seconds = (Date.now() - started) / 1000
  const cpuAfter = sampleCpu(cluster)
  const sessionLine = sessions()
  const batches = (await tradeBatches(cluster)) - batchesBefore
  await faulted
  await settled(cluster, record, 600_000)
  const drained = (Date.now() - started) / 1000 - seconds
  const problems = await audit(cluster, record)
  console.log(
    `${label}: ${tally.total} requests in ${seconds.toFixed(1)} s = ${(tally.total / seconds).toFixed(0)} req/s; ` +
      `${tally.ok} ok, ${tally.refused} refused, ${tally.status5xx.length} 5xx, ${tally.cut} cut; ` +
      `every deposit credited and withdrawal paid ${drained.toFixed(1)} s after the load; checks: ` +
      (problems.length ? problems.slice(0, 5).join('; ') : 'sound'),
  )
  console.log(cpuLine(cpuBefore, cpuAfter))
  const commands = ['buy', 'sell', 'cancelOrder'].reduce(
    (n, route) => n + ([...tally.waited].find(([path]) => path.endsWith(`/${route}`))?.[1].count ?? 0),
    0,
  )
  console.log(
    `  trade batches: ${batches} for ${commands} orders and cancels` +
      (batches > 0 ? ` (${(commands / batches).toFixed(1)} each)` : ''),
  )
  console.log(
    '  mean wait per request, as the users saw it (ms): ' +
      [...tally.waited]
        .sort((a, b) => b[1].ms - a[1].ms)
        .map(([route, { count, ms }]) => `${route.split('/').pop()} ${(ms / count).toFixed(0)} (${count})`)
        .join(', '),
  )
  console.log(sessionLine)
  for (const line of tally.status5xx.slice(0, 5)) console.log(`  5xx: ${line}`)
  for (const line of cluster.instances.flatMap((i) => i.faults()).slice(0, 5)) console.log(`  log: ${line}`)
  return { sound: problems.length === 0 && tally.status5xx.length === 0, rate: tally.total / seconds }
}

// The server processes run the compiled bundle (apps/server/test/fixtures/server-bundle.ts), as production runs compiled
// code: through tsx every function the app creates per request also paid tsx's name-keeping helper. bench:smoke builds
// one for all its benches (TEST_SERVER_BUNDLE).
const bundle = process.env.TEST_SERVER_BUNDLE ? undefined : await buildServerBundle()
// One control group per instance, made before the cluster starts; each spawn of an instance (its restart included)
// goes into its own.
let quotas: Awaited<ReturnType<typeof cpuQuotas>> | undefined
try {
  quotas =
    instanceCpu === undefined
      ? undefined
      : await cpuQuotas(jobInstance ? 3 : 2, instanceCpu, Number(values['cpu-period-ms']) * 1000)
} catch (error) {
  bundle?.remove()
  console.error((error as Error).message)
  process.exit(2)
}
if (quotas)
  console.log(
    `each instance capped at ${instanceCpu} core (${quotas.quotaUs} µs of CPU per ${quotas.periodUs} µs, ` +
      `${quotas.hierarchy}); PostgreSQL and this process are not capped`,
  )
const spawned = new Map<number, number>()
let cluster: Cluster | undefined
/**
 * Interrupted: the instances killed, so that their groups can be removed, the cluster closed (its throwaway
 * PostgreSQL stopped; bounded, the run is being given up), then out.
 */
const interrupted = async (signal: NodeJS.Signals) => {
  for (const pid of spawned.values()) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
  await Promise.race([cluster?.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 10_000))])
  await quotas?.remove().catch((error) => console.error(`control groups left behind: ${(error as Error).message}`))
  bundle?.remove()
  process.exit(signal === 'SIGINT' ? 130 : 143)
}
if (quotas) for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void interrupted(signal))
let sound = true
const rates: number[] = []
const phase = async (label: string, faults?: (tally: Tally) => Promise<void>) => {
  const result = await measure(cluster as Cluster, label, faults)
  sound = result.sound && sound
  rates.push(result.rate)
}
try {
  const groups = quotas?.groups as CpuGroup[] | undefined
  cluster = await startCluster(jobInstance ? 3 : 2, {
    chainProcess: values['chain-process'],
    // With a job instance, the two measured instances run no watcher and no sender (0: never; docs/operations.md).
    env: async (i): Promise<Record<string, string>> =>
      jobInstance && i < 2 ? { WATCHER_INTERVAL_MS: '0', SENDER_INTERVAL_MS: '0' } : {},
    onSpawn: (index, pid) => {
      spawned.set(index, pid)
      groups?.[index]?.add(pid)
    },
  })
  const warmup = Number(values.warmup)
  const warmUp = async () => {
    if (warmup <= 0) return
    cluster?.use(2)
    const tally = new Tally()
    const started = Date.now()
    const users = await fundUsers(cluster as Cluster, warmup)
    await settled(cluster as Cluster, await runLoad(cluster as Cluster, tally, users, { rounds: 1 }), 600_000)
    console.log(
      `warm-up: ${tally.total} requests through both instances in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
        '(not counted)',
    )
  }
  await warmUp()
  cluster.use(1)
  await phase('one instance')
  await warmUp()
  cluster.use(2)
  await phase('two instances')
  const [, b] = cluster.instances as [Cluster['instances'][0], Cluster['instances'][0]]
  const faulty = cluster
  await phase('two instances under faults', async (tally) => {
    const window = async (label: string, fault: () => Promise<number>) => {
      const before = tally.snapshot()
      const at = Date.now()
      const recovered = await fault()
      const after = tally.snapshot()
      console.log(
        `  ${label}: recovered in ${((recovered - at) / 1000).toFixed(2)} s; meanwhile ${after.total - before.total} ` +
          `requests, ${after.status5xx - before.status5xx} 5xx, ${after.cut - before.cut} cut`,
      )
    }
    // Until the first answer after every connection of the instances to the database was ended.
    const terminate = async () => {
      const next = tally.nextOk()
      console.log(`  terminated ${await faulty.dropConnections()} connections`)
      return next
    }
    await tally.after(between)
    await window('connections terminated (first ok answer after)', terminate)
    await tally.after(between)
    await window('instance SIGKILLed (until restarted and ready)', async () => {
      await b.kill()
      await b.start()
      await ready(b)
      return Date.now()
    })
    await tally.after(between)
    await window('connections terminated again', terminate)
    await tally.after(between)
  })
  const [one, two] = rates as [number, number]
  console.log(`two instances / one: ${(two / one).toFixed(2)}×`)
} finally {
  await cluster?.close()
  await quotas?.remove()
  bundle?.remove()
}
const loadAverage = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')
console.log(
  `machine: ${os.cpus().length} cores, load average ${loadAverage} (a shared machine: see docs/benchmarks.md)`,
)
process.exit(sound ? 0 : 1)
