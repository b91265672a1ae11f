// Several instances under faults (docs/operations.md "Several instances"): two server processes on
// one PostgreSQL behind a round-robin proxy, a mixed load of 20 users, and mid-load every database connection
// terminated, one instance SIGKILLed and restarted, and the connections terminated again. Then: every deposit credited
// once, every withdrawal paid once on chain, the ledger sound, locked = open orders + open withdrawals, no 5xx (only
// requests cut by the kill fail), and the instance that was not killed never went down. Its own tier (`npm run
// test:faults`, a stage of `npm test`): real processes take seconds to start. On TEST_DATABASE_URL's cluster, or on a
// throwaway one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audit, type Cluster, ready, runLoad, settled, startCluster, Tally } from '../fixtures/instances.ts'

describe('two instances under faults', () => {
  let cluster: Cluster
  beforeAll(async () => {
    cluster = await startCluster(2)
  }, 120_000)
  afterAll(() => cluster?.close())

  it('credits and pays everything exactly once through kills and dropped connections, without a 5xx', async () => {
    const [a, b] = cluster.instances as [(typeof cluster.instances)[0], (typeof cluster.instances)[0]]
    const tally = new Tally()
    let faultsDone = false
    const dropped: number[] = []
    const faults = (async () => {
      try {
        await tally.after(60)
        dropped.push(await cluster.dropConnections())
        await tally.after(40)
        await b.kill()
        await tally.after(40)
        await b.start()
        await ready(b)
        await tally.after(40)
        dropped.push(await cluster.dropConnections())
        await tally.after(40)
      } finally {
        faultsDone = true
      }
    })()
    const record = await runLoad(cluster, tally, { users: 20, rounds: 3, more: () => !faultsDone })
    await faults
    await settled(cluster, record)

    expect(tally.status5xx, cluster.instances.flatMap((i) => i.faults()).join('\n')).toEqual([])
    expect(await audit(cluster, record)).toEqual([])
    expect(
      dropped.every((n) => n > 0),
      `connections terminated: ${dropped}`,
    ).toBe(true)
    // The instance that was not killed rode out both drops: same process, still answering.
    expect([a.child?.exitCode, a.child?.signalCode], a.output).toEqual([null, null])
    await ready(a)
    // The load did what it was meant to: orders and withdrawals went through both before and after the faults.
    expect(record.paid.length).toBe(40)
    const withdrawals = await cluster.db.selectFrom('withdrawals').select('id').execute()
    expect(withdrawals.length).toBeGreaterThan(20)
    console.log(
      `instances under faults: ${tally.total} requests, ${tally.ok} ok, ${tally.refused} refused, ${tally.cut} cut by the kill, ` +
        `${tally.status5xx.length} 5xx, ${withdrawals.length} withdrawals; connections terminated ${dropped.join(' + ')}`,
    )
  }, 150_000)
})
