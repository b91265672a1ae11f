// Several instances under faults, at a larger load (docs/benchmarks.md "bench/instances"): the setup
// of apps/server/test/faults/instances.test.ts — server processes on one PostgreSQL (a throwaway cluster) and the
// local chain, behind a round-robin TCP proxy on loopback — measured three times on fresh users: the mixed load through
// one instance (the baseline), through two, and through two while every database connection is terminated, one
// instance is SIGKILLed and restarted, and the connections are terminated again. Reports throughput, the errors each
// fault caused, the time to recover, and the checks (deposits credited once, withdrawals paid once, ledger sound).
//   npm run bench:instances -- --users 30 --rounds 4 --between 300
import os from 'node:os'
import { parseArgs } from 'node:util'
import {
  audit,
  type Cluster,
  ready,
  runLoad,
  settled,
  startCluster,
  Tally,
} from '../../apps/server/test/fixtures/instances.ts'
import { buildServerBundle } from '../../apps/server/test/fixtures/server-bundle.ts'

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '4' },
    /** Requests answered before each fault and after the last (the load the faults fall into). */
    between: { type: 'string', default: '300' },
  },
})
const between = Number(values.between)
const load = { users: Number(values.users), rounds: Number(values.rounds) }

async function measure(cluster: Cluster, label: string, faults?: (tally: Tally) => Promise<void>) {
  const tally = new Tally()
  const started = Date.now()
  let faultsDone = !faults
  const faulted = faults?.(tally).finally(() => {
    faultsDone = true
  })
  const record = await runLoad(cluster, tally, { ...load, more: () => !faultsDone })
  const seconds = (Date.now() - started) / 1000
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
  for (const line of tally.status5xx.slice(0, 5)) console.log(`  5xx: ${line}`)
  for (const line of cluster.instances.flatMap((i) => i.faults()).slice(0, 5)) console.log(`  log: ${line}`)
  return problems.length === 0 && tally.status5xx.length === 0
}

// The server processes run the compiled bundle (apps/server/test/fixtures/server-bundle.ts), as production runs compiled
// code: through tsx every function the app creates per request also paid tsx's name-keeping helper. bench:smoke builds
// one for all its benches (TEST_SERVER_BUNDLE).
const bundle = process.env.TEST_SERVER_BUNDLE ? undefined : await buildServerBundle()
const cluster = await startCluster(2)
let sound = true
try {
  cluster.use(1)
  sound = (await measure(cluster, 'one instance')) && sound
  cluster.use(2)
  sound = (await measure(cluster, 'two instances')) && sound
  const [, b] = cluster.instances as [Cluster['instances'][0], Cluster['instances'][0]]
  sound =
    (await measure(cluster, 'two instances under faults', async (tally) => {
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
      await tally.after(between)
      await window('connections terminated (first ok answer after)', async () => {
        const next = tally.nextOk()
        console.log(`  terminated ${await cluster.dropConnections()} connections`)
        return next
      })
      await tally.after(between)
      await window('instance SIGKILLed (until restarted and ready)', async () => {
        await b.kill()
        await b.start()
        await ready(b)
        return Date.now()
      })
      await tally.after(between)
      await window('connections terminated again', async () => {
        const next = tally.nextOk()
        console.log(`  terminated ${await cluster.dropConnections()} connections`)
        return next
      })
      await tally.after(between)
    })) && sound
} finally {
  await cluster.close()
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
