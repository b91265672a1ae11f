// Several instances under faults (docs/operations.md "Several instances"): two server processes on
// one PostgreSQL behind a round-robin proxy, a mixed load of 20 users, and mid-load every database connection
// terminated, one instance SIGKILLed and restarted, and the connections terminated again. Then: every deposit credited
// once, every withdrawal paid once on chain, the ledger sound, locked = open orders + open withdrawals, no 5xx (only
// requests cut by the kill fail), and the instance that was not killed never went down. Its own tier (`npm run
// test:faults`, a stage of `npm test`): real processes take seconds to start. On TEST_DATABASE_URL's cluster, or on a
// throwaway one.

import { Keypair } from '@solana/web3.js'
import { api } from '@solpledge/contract'
import { PLG } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  audit,
  type Cluster,
  fundUsers,
  payTopUp,
  post,
  ready,
  runLoad,
  settled,
  signIn,
  startCluster,
  Tally,
  until,
} from '../fixtures/instances.ts'
import { TestWallet } from '../helpers.ts'
import { type EventMessage, LiveTestClient } from '../live-client.ts'

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
    const users = await fundUsers(cluster, 20)
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
    const record = await runLoad(cluster, tally, users, { rounds: 3, more: () => !faultsDone })
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

  it('live channel: a client of a killed instance reconnects through the proxy to the other and misses nothing', async () => {
    const [a, b] = cluster.instances as [(typeof cluster.instances)[0], (typeof cluster.instances)[0]]
    await ready(a)
    await ready(b)
    const tally = new Tally()
    const wallet = new TestWallet()
    const keypair = Keypair.fromSeed(wallet.secret)
    await cluster.localnet.faucet(wallet.address, { sol: 2_000_000_000n, tokens: { PLG: 100n * PLG } })
    const auth = await signIn(cluster, wallet, tally)
    const { intent } = await payTopUp(cluster, keypair, auth, 'PLG', 50n * PLG, tally)
    await until('the top-up credited', async () => {
      const row = await cluster.db
        .selectFrom('payment_intents')
        .select('status')
        .where('id', '=', intent.id)
        .executeTakeFirst()
      return row?.status === 'fulfilled'
    })
    // Orders go to A (its process commits them); the client is B's.
    const sell = async (n: number) => {
      const placed = await post(
        `http://127.0.0.1:${a.port}`,
        api.tradeSell,
        { price: `${90_000_000 + n * 100}`, amount: `${PLG}` },
        tally,
        auth,
      )
      expect(placed?.code, JSON.stringify(placed)).toBe(1)
      return (placed?.data as { id: string } | undefined)?.id as string
    }
    const open = async (url: string, since: Partial<Record<'market' | 'user', number>>) => {
      const client = await LiveTestClient.connect(`${url.replace(/^http/, 'ws')}/api/live`)
      expect(await client.auth({ token: auth.token, address: auth.address })).toMatchObject({ type: 'authed' })
      const subscribed = {
        market: await client.subscribe('market', since.market),
        user: await client.subscribe('user', since.user),
      }
      return { client, subscribed }
    }
    const first = await open(`http://127.0.0.1:${b.port}`, {})
    const ids = [await sell(1), await sell(2)]
    await first.client.event('user', (e) => e.data.kind === 'order' && e.data.order.id === ids[1])
    await b.kill()
    expect((await first.client.whenClosed()).code).toBe(1006)
    // Committed while the client has no connection.
    ids.push(await sell(3), await sell(4))
    const last = (topic: 'market' | 'user') => first.client.events(topic).at(-1)?.seq ?? first.subscribed[topic].seq
    // The proxy skips the dead instance: the client lands on A and resumes from the last numbers it applied.
    const second = await open(cluster.url, { market: last('market'), user: last('user') })
    expect(second.subscribed.market).toMatchObject({ resumed: true, seq: last('market') })
    expect(second.subscribed.user).toMatchObject({ resumed: true, seq: last('user') })
    ids.push(await sell(5))
    await second.client.event('user', (e) => e.data.kind === 'order' && e.data.order.id === ids[4])
    for (const topic of ['market', 'user'] as const) {
      const seqs = [...first.client.events(topic), ...second.client.events(topic)].map((e: EventMessage) => e.seq)
      const from = first.subscribed[topic].seq + 1
      expect(seqs, topic).toEqual(seqs.map((_, i) => from + i))
    }
    const orders = [...first.client.events('user'), ...second.client.events('user')].flatMap((e) =>
      e.data.kind === 'order' ? [e.data.order.id] : [],
    )
    expect(new Set(orders)).toEqual(new Set(ids))
    second.client.close()
    expect(tally.status5xx).toEqual([])
    await b.start()
  }, 120_000)
})
