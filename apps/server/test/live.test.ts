// The live channel (docs/architecture.md "Live updates"): authentication, topic isolation, the outbox's numbering and
// resumption, gaps, slow consumers, caps, heartbeats, and one commit reaching every instance.
import { api, Code, LIVE_CLOSE } from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/app.ts'
import type { LiveSettings } from '../src/config.ts'
import { type Database, openDatabase } from '../src/db/index.ts'
import { listen } from '../src/db/notify.ts'
import { adminSignIn, allowAdmin, reviewedUsdtWithdrawals } from './admin.ts'
import { clearBook, createTradeApp, place, type Trader, trader } from './fixtures/trade.ts'
import { call, createTestApp, creditAvailable, dbKind, type TestContext, testConfig } from './helpers.ts'
import { type EventMessage, LiveTestClient, liveUrl } from './live-client.ts'

type TradeApp = Awaited<ReturnType<typeof createTradeApp>>

describe(`live channel (${dbKind})`, () => {
  let t: TradeApp
  let url: string
  const clients: LiveTestClient[] = []
  const connect = async (headers?: Record<string, string>) => {
    const client = await LiveTestClient.connect(url, headers)
    clients.push(client)
    return client
  }
  const signedIn = async (u: Trader) => {
    const client = await connect()
    expect(await client.auth(u.auth)).toEqual({ type: 'authed', as: 'user' })
    return client
  }

  beforeAll(async () => {
    t = await createTradeApp()
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    url = liveUrl(t.app)
    await reviewedUsdtWithdrawals(t.db)
  })
  afterAll(async () => {
    for (const client of clients) client.close()
    await t.close()
  })

  it('answers a plain GET with 426 and the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/live' })
    expect(res.statusCode).toBe(426)
    expect(res.json()).toMatchObject({ code: Code.BAD_REQUEST, key: 'error.badRequest', data: null })
  })

  it('authenticates before the user and console topics: anonymous, wrong session, user, admin', async () => {
    const u = await trader(t)
    const anonymous = await connect()
    // Public topics need nothing; the user's and the console's are refused without the session that names them.
    expect(await anonymous.subscribe('market')).toMatchObject({ type: 'subscribed', topic: 'market', resumed: false })
    anonymous.send({ op: 'sub', topic: 'user' })
    await anonymous.next((m) => m.type === 'error' && m.error === 'forbidden' && m.topic === 'user')
    anonymous.send({ op: 'sub', topic: 'console' })
    await anonymous.next((m) => m.type === 'error' && m.error === 'forbidden' && m.topic === 'console')

    // A token of another address, an unknown token: refused and closed.
    for (const bad of [
      { token: u.auth.token, address: (await trader(t)).address },
      { token: 'not-a-token', address: u.address },
    ]) {
      const client = await connect()
      expect(await client.auth(bad)).toEqual({ type: 'error', error: 'session_invalid' })
      expect((await client.whenClosed()).code).toBe(LIVE_CLOSE.sessionInvalid)
    }

    const user = await signedIn(u)
    expect(await user.subscribe('user')).toMatchObject({ topic: 'user', resumed: false })
    user.send({ op: 'sub', topic: 'console' })
    await user.next((m) => m.type === 'error' && m.error === 'forbidden' && m.topic === 'console')
    // A second auth on the same connection is not the protocol.
    user.send({ op: 'auth', ...u.auth })
    expect((await user.whenClosed()).code).toBe(LIVE_CLOSE.protocol)

    const admin = await connect()
    const { token } = (await adminSignIn(t.app, await allowAdmin(t.db, 'viewer'))).data as { token: string }
    expect(await admin.auth({ admin_token: token })).toEqual({ type: 'authed', as: 'admin' })
    expect(await admin.subscribe('console')).toMatchObject({ topic: 'console' })
    const bad = await connect()
    expect(await bad.auth({ admin_token: 'nope' })).toEqual({ type: 'error', error: 'session_invalid' })

    // Not JSON, or not a message of the protocol: closed.
    for (const text of ['{', JSON.stringify({ op: 'sub', topic: 'nope' }), JSON.stringify({ op: 'pong', x: 1 })]) {
      const client = await connect()
      client.socket.send(text)
      expect((await client.whenClosed()).code).toBe(LIVE_CLOSE.protocol)
    }
  })

  it('isolates users: A never receives what happens to B, and each sees its own balance, order and withdrawal', async () => {
    const a = await trader(t, { USDT: 1_000n * USDT })
    const b = await trader(t, { PLG: 100n * PLG })
    const [ca, cb] = [await signedIn(a), await signedIn(b)]
    await ca.subscribe('user')
    await cb.subscribe('user')

    await creditAvailable(t.db, b.id, 'USDT', 7n * USDT)
    await cb.event('user', (e) => e.data.kind === 'balance' && e.data.coin === 'USDT' && e.data.balance === '7000000')
    const sell = await place(t.app, b, 'sell', 500_000n, 10n * PLG)
    const bOrder = await cb.event('user', (e) => e.data.kind === 'order' && e.data.order.id === sell.id)
    expect(bOrder.data).toEqual({ kind: 'order', order: sell })

    const withdrawal = await call(t.app, api.withdraw, { coin: 'USDT', amount: String(20n * USDT) }, a.auth)
    expect(withdrawal.code, withdrawal.msg).toBe(Code.OK)
    const id = (withdrawal.data as { id: string }).id
    await ca.event('user', (e) => e.data.kind === 'withdrawal' && e.data.id === id && e.data.status === 'pending')
    await ca.event(
      'user',
      (e) => e.data.kind === 'balance' && e.data.account === 'locked' && e.data.balance === String(20n * USDT),
    )

    // Every user event is the receiver's own, and the numbers of each topic follow one another.
    const mine = (client: LiveTestClient, u: Trader) =>
      client.events('user').every((e) => {
        if (e.data.kind === 'order') return e.data.order.id === (u === b ? sell.id : '')
        if (e.data.kind === 'withdrawal') return u === a && e.data.id === id
        return true
      })
    expect(mine(ca, a) && mine(cb, b)).toBe(true)
    expect(cb.events('user').some((e) => e.data.kind === 'withdrawal')).toBe(false)
    expect(ca.events('user').some((e) => e.data.kind === 'order')).toBe(false)
    expect(
      ca
        .events('user')
        .filter((e) => e.data.kind === 'balance')
        .map((e) => e.data),
    ).not.toContainEqual(expect.objectContaining({ balance: '7000000' }))
    for (const client of [ca, cb]) expectContiguous(client.events('user'))
  })

  it('carries the market: the book after each order and the trades, numbered with no gap', async () => {
    await clearBook(t.app)
    const [s, b] = [await trader(t, { PLG: 100n * PLG }), await trader(t, { USDT: 1_000n * USDT })]
    const watcher = await connect()
    const { seq } = await watcher.subscribe('market')
    const sell = await place(t.app, s, 'sell', 600_000n, 5n * PLG)
    const book = await watcher.event('market', (e) => e.data.kind === 'book' && e.data.best_ask === '600000')
    expect(book.seq).toBeGreaterThan(seq)
    expect(book.data).toMatchObject({
      asks: expect.arrayContaining([{ price: '600000', amount: String(5n * PLG), orders: 1 }]),
    })
    await place(t.app, b, 'buy', 600_000n, 2n * PLG)
    const traded = await watcher.event('market', (e) => e.data.kind === 'book' && e.data.trades.length > 0)
    expect(traded.data).toMatchObject({
      trades: [{ id: expect.stringMatching(new RegExp(`^${sell.id}-\\d+$`)), price: '600000', side: 'buy' }],
    })
    // Shortly after, the figures the trade moved: the market's 24 h figures and the valuation price.
    const home = await connect()
    await home.subscribe('home')
    const figures = await watcher.event('market', (e) => e.data.kind === 'figures')
    expect(figures.data).toMatchObject({ market: { last_price: '600000' } })
    expectContiguous(watcher.events('market').filter((e) => e.seq > seq))
  })

  it('counts an instance once among a topic’s listeners while it has subscribers; a commit nobody listens to sends no NOTIFY', async () => {
    const listeners = async () =>
      Number(
        (await t.db.selectFrom('live_topics').select('listeners').where('topic', '=', 'liabilities').executeTakeFirst())
          ?.listeners ?? 0,
      )
    const notified: string[] = []
    const listener = await listen(t.db, 'live', {
      onNotify: (payload) => notified.push(payload),
      onListening: () => {},
    })
    const covers = (id: number) =>
      notified.some((payload) => {
        const [first, last] = payload.split('-').map(Number)
        return (first as number) <= id && id <= (last as number)
      })
    const publishRoot = async (id: number) => {
      await sql`select live_publish('liabilities', ${JSON.stringify({ kind: 'root', id: String(id) })}::jsonb)`.execute(
        t.db,
      )
      const row = await t.db
        .selectFrom('live_outbox')
        .select(['id', 'seq'])
        .where('topic', '=', 'liabilities')
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow()
      return { id: Number(row.id), seq: Number(row.seq) }
    }
    try {
      expect(await listeners()).toBe(0)
      const unheard = await publishRoot(1)
      const a = await connect()
      const b = await connect()
      // The number the subscribers start from covers the commit that sent no NOTIFY.
      expect(await a.subscribe('liabilities')).toMatchObject({ seq: unheard.seq })
      expect(await b.subscribe('liabilities')).toMatchObject({ seq: unheard.seq })
      expect(await listeners()).toBe(1)
      const heard = await publishRoot(2)
      await a.event('liabilities', (e) => e.seq === heard.seq)
      await b.event('liabilities', (e) => e.seq === heard.seq)
      await until(() => covers(heard.id))
      // NOTIFYs arrive in commit order: the earlier commit's would have come first.
      expect(covers(unheard.id)).toBe(false)
      a.close()
      expect(await listeners()).toBe(1)
      b.close()
      await until(async () => (await listeners()) === 0)
    } finally {
      await listener.close()
    }
  })

  it('writes no balance message while nobody listens to the user: a client coming back after one takes a snapshot', async () => {
    const u = await trader(t, { USDT: 100n * USDT })
    const topic = `user:${u.id}`
    const left = async () =>
      until(
        async () =>
          (await t.db.selectFrom('live_topics').select('listeners').where('topic', '=', topic).executeTakeFirst())
            ?.listeners === 0,
      )
    const first = await signedIn(u)
    const { seq } = await first.subscribe('user')
    await creditAvailable(t.db, u.id, 'USDT', 1n * USDT)
    const balanceIs = (amount: bigint) => (e: EventMessage<'user'>) =>
      e.data.kind === 'balance' && e.data.balance === String(amount)
    const heard = await first.event('user', balanceIs(101n * USDT))
    first.close()
    await left()
    // Gone: the number moved on, with no row, and these balance messages are written for nobody.
    await creditAvailable(t.db, u.id, 'USDT', 2n * USDT)
    await creditAvailable(t.db, u.id, 'USDT', 3n * USDT)
    const outbox = await t.db.selectFrom('live_outbox').select('seq').where('topic', '=', topic).execute()
    expect(outbox.map((row) => Number(row.seq))).toEqual([seq + 1])
    const back = await signedIn(u)
    expect(await back.subscribe('user', heard.seq)).toMatchObject({ seq: heard.seq + 1, resumed: false })
    // In the app again: every balance message.
    await creditAvailable(t.db, u.id, 'USDT', 4n * USDT)
    expect((await back.event('user', balanceIs(110n * USDT))).seq).toBe(heard.seq + 2)
  })

  it('resumes from `since` while the outbox has the events, and says snapshot when it does not', async () => {
    const client = await connect()
    const { seq: start } = await client.subscribe('notice')
    for (let i = 0; i < 3; i++) await sql`select live_publish('notice', '{"kind":"content"}'::jsonb)`.execute(t.db)
    await client.event('notice', (e) => e.seq === start + 3)
    // A client that saw only the first of them comes back: the two after it are sent again, in order.
    const back = await connect()
    expect(await back.subscribe('notice', start + 1)).toMatchObject({ seq: start + 1, resumed: true })
    await back.event('notice', (e) => e.seq === start + 3)
    expect(back.events('notice').map((e) => e.seq)).toEqual([start + 2, start + 3])
    // Up to date: resumed, nothing to send. Ahead of the server (another database): snapshot.
    const current = await connect()
    expect(await current.subscribe('notice', start + 3)).toMatchObject({ seq: start + 3, resumed: true })
    expect(await current.subscribe('notice', start + 99)).toMatchObject({ seq: start + 3, resumed: false })
    // Pruned: the outbox no longer holds what came after `since`.
    await sql`delete from live_outbox where topic = 'notice' and seq = ${start + 2}`.execute(t.db)
    const late = await connect()
    expect(await late.subscribe('notice', start + 1)).toMatchObject({ seq: start + 3, resumed: false })
  })

  it('fills a gap from the outbox, and turns it into a snapshot when the rows are gone', async () => {
    const client = await connect()
    const { seq } = await client.subscribe('rank')
    // Events committed without their NOTIFY (as while the listening connection is down): the next event's arrival
    // shows the hole, which is read from the outbox before it.
    await silently(t.db, 'rank', [seq + 1, seq + 2])
    await sql`select live_publish('rank', '{"kind":"rank"}'::jsonb)`.execute(t.db)
    await client.event('rank', (e) => e.seq === seq + 3)
    expect(client.events('rank').map((e) => e.seq)).toEqual([seq + 1, seq + 2, seq + 3])
    // A hole the outbox cannot fill any more: the client is told to take a snapshot from the next number on.
    await silently(t.db, 'rank', [seq + 4, seq + 5])
    await sql`delete from live_outbox where topic = 'rank' and seq = ${seq + 4}`.execute(t.db)
    const from = client.messages.length
    await sql`select live_publish('rank', '{"kind":"rank"}'::jsonb)`.execute(t.db)
    await client.event('rank', (e) => e.seq === seq + 6)
    expect(client.messages.slice(from)).toEqual([
      { type: 'subscribed', topic: 'rank', seq: seq + 5, resumed: false },
      { type: 'event', topic: 'rank', seq: seq + 6, data: { kind: 'rank' } },
    ])
  })

  it('publishes nothing when the transaction rolls back, and numbers commits in their order', async () => {
    const client = await connect()
    const { seq } = await client.subscribe('config')
    await t.db
      .transaction()
      .execute(async (trx) => {
        await sql`select live_publish('config', '{"kind":"config"}'::jsonb)`.execute(trx)
        throw new Error('rolled back')
      })
      .catch(() => {})
    await sql`select live_publish('config', '{"kind":"assets"}'::jsonb)`.execute(t.db)
    const next = await client.event('config')
    expect(next).toEqual({ type: 'event', topic: 'config', seq: seq + 1, data: { kind: 'assets' } })
  })

  it('numbers a transaction of many events on many topics in linear time, after small commits on the same session', async () => {
    // The session's plan of the numbering is made at its first commit, on an outbox of a few unnumbered rows: with the
    // numbering of migration 0024-live, reused for 20,000 events on 10,000 topics, it took minutes (nested loops over
    // the CTEs); 0030-live-cheaper's is planned the same whatever the rows (docs/benchmarks.md, bench/team).
    await t.db.connection().execute(async (session) => {
      await sql`select live_publish('bulk-warm', '{"kind":"rank"}'::jsonb)`.execute(session)
      await sql`select live_publish('bulk-warm', '{"kind":"rank"}'::jsonb)`.execute(session)
      await session.transaction().execute(async (trx) => {
        await sql`
          select live_publish('bulk-' || (i % 10000), jsonb_build_object('kind', 'rank', 'i', i))
          from generate_series(1, 20000) i`.execute(trx)
      })
    })
    // Each topic's two events numbered 1 and 2 in the order they were written.
    const { rows } = await sql<{ topics: string; wrong: string }>`
      select count(distinct topic)::text as topics,
        (count(*) filter (where seq <> n or committed_at is null))::text as wrong
      from (select topic, seq, committed_at, row_number() over (partition by topic order by id) as n
            from live_outbox where topic like 'bulk-%' and topic <> 'bulk-warm') x`.execute(t.db)
    expect(rows[0]).toEqual({ topics: '10000', wrong: '0' })
    const last = await sql<{ seq: string }>`select seq::text as seq from live_topics where topic = 'bulk-7'`.execute(
      t.db,
    )
    expect(last.rows[0]?.seq).toBe('2')
  })
})

describe(`live channel limits (${dbKind})`, () => {
  let t: TradeApp
  let url: string
  beforeAll(async () => {
    t = await createTradeAppWith({ maxPerIp: 4, maxPerSession: 2, maxBufferBytes: 64 * 1024 })
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    url = liveUrl(t.app)
  })
  afterAll(() => t.close())

  it('caps connections per session (closed at auth) and per address (HTTP 429 before the upgrade)', async () => {
    const u = await trader(t)
    const [one, two] = [await LiveTestClient.connect(url), await LiveTestClient.connect(url)]
    for (const client of [one, two]) expect(await client.auth(u.auth)).toEqual({ type: 'authed', as: 'user' })
    const three = await LiveTestClient.connect(url)
    expect(await three.auth(u.auth)).toEqual({ type: 'error', error: 'too_many' })
    expect((await three.whenClosed()).code).toBe(LIVE_CLOSE.tooMany)
    // A place is free again once a connection closed.
    one.close()
    await expect
      .poll(async () => {
        const again = await LiveTestClient.connect(url)
        const answer = await again.auth(u.auth)
        again.close()
        return answer
      })
      .toEqual({ type: 'authed', as: 'user' })

    const held = [two, ...(await Promise.all([1, 2, 3].map(() => LiveTestClient.connect(url))))]
    await expect
      .poll(() =>
        LiveTestClient.connect(url)
          .then((c) => c.close())
          .catch((e) => e.status),
      )
      .toBe(429)
    for (const client of held) client.close()
  })

  it('pings: a client that answers stays (past the HTTP request timeout too), one that does not is closed', async () => {
    // REQUEST_TIMEOUT_MS bounds an HTTP request, not the WebSocket it upgraded to.
    // Pings 600 ms apart: an answer has that long to come back, also while the rest of npm test loads the machine
    // (at 300 ms an answering client was once closed so).
    const quick = await createTestApp({ requestTimeoutMs: 1000, live: { ...testConfig().live, heartbeatMs: 600 } })
    await quick.app.listen({ host: '127.0.0.1', port: 0 })
    const answering = await LiveTestClient.connect(liveUrl(quick.app))
    const silent = await LiveTestClient.connect(liveUrl(quick.app))
    answering.socket.on('message', (data) => {
      if (JSON.parse(data.toString()).type === 'ping') answering.send({ op: 'pong' })
    })
    expect((await silent.whenClosed(5_000)).code).toBe(LIVE_CLOSE.heartbeat)
    // Six pings: 3.6 seconds, past the request timeout and Node's check of it (every second).
    await answering.next(() => answering.messages.filter((m) => m.type === 'ping').length >= 6, 15_000)
    expect(answering.closed).toBeNull()
    answering.close()
    await quick.close()
  })

  it('cuts a client that does not read, instead of buffering without bound', async () => {
    const slow = await LiveTestClient.connect(url)
    await slow.subscribe('notice')
    // The client stops reading: the kernel's buffers fill, then the server's.
    ;(slow.socket as unknown as { _socket: { pause(): void } })._socket.pause()
    const big = JSON.stringify({ kind: 'content', pad: 'x'.repeat(60_000) })
    for (let i = 0; i < 400 && !slow.closed; i++) await sql`select live_publish('notice', ${big}::jsonb)`.execute(t.db)
    ;(slow.socket as unknown as { _socket: { resume(): void } })._socket.resume()
    expect((await slow.whenClosed()).code).toBe(1006)
    const metrics = await t.app.metrics.registry.getSingleMetricAsString('solpledge_live_closed_total')
    expect(metrics).toMatch(/solpledge_live_closed_total\{reason="too_slow"\} 1/)
  })
})

describe(`live channel across instances (${dbKind})`, () => {
  let a: TradeApp
  let b: { app: App; db: Database; close: () => Promise<void> }
  beforeAll(async () => {
    a = await createTradeApp()
    b = await secondInstance(a)
    await b.app.listen({ host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await b.close()
    await a.close()
  })

  it('a commit on instance A reaches the clients of instance B through the outbox and NOTIFY', async () => {
    const seller = await trader(a, { PLG: 10n * PLG })
    const watcher = await LiveTestClient.connect(liveUrl(b.app))
    const own = await LiveTestClient.connect(liveUrl(b.app))
    expect(await own.auth(seller.auth)).toMatchObject({ type: 'authed' })
    const { seq } = await watcher.subscribe('market')
    await own.subscribe('user')
    // Orders go to A (its market, its transaction); the clients are B's.
    const placed = await Promise.all(
      [1, 2, 3].map((i) => place(a.app, seller, 'sell', 700_000n + BigInt(i) * 100n, PLG)),
    )
    await watcher.event('market', (e) => e.data.kind === 'book' && e.data.asks.length === 3)
    expectContiguous(watcher.events('market').filter((e) => e.seq > seq))
    for (const order of placed) await own.event('user', (e) => e.data.kind === 'order' && e.data.order.id === order.id)
    watcher.close()
    own.close()
  })
})

/** Resolves once `done` holds, looking again every 20 ms. */
async function until(done: () => boolean | Promise<boolean>) {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 20))
}

/** The events' numbers follow one another. */
function expectContiguous(events: EventMessage[]) {
  const seqs = events.map((e) => e.seq)
  expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] as number) + i))
}

/** Rows of `topic` numbered `seqs`, committed without NOTIFY (triggers off for this transaction). */
async function silently(db: Database, topic: string, seqs: number[]) {
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx)
    for (const seq of seqs)
      await sql`insert into live_outbox (topic, seq, payload, committed_at) values (${topic}, ${seq}, '{"kind":"rank"}', now())`.execute(
        trx,
      )
    await sql`
      insert into live_topics (topic, seq) values (${topic}, ${Math.max(...seqs)})
      on conflict (topic) do update set seq = excluded.seq`.execute(trx)
  })
}

const createTradeAppWith = (live: Partial<LiveSettings>) => createTradeApp({ live: { ...testConfig().live, ...live } })

/**
 * Another instance on the same database: on PostgreSQL its own pool and listening connection; on PGlite (one process
 * by design) the same database object, each app with its own hub and listener.
 */
async function secondInstance(first: TestContext) {
  const db = first.url ? await openDatabase({ url: first.url }) : first.db
  const app = await buildApp({ db, config: first.app.config, platform: first.platform })
  await app.ready()
  return {
    app,
    db,
    close: async () => {
      await app.close()
      if (db !== first.db) await db.destroy()
    },
  }
}
