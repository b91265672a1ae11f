// Balance messages written numbered (migration 0031-live-numbered): kept pending during the transaction and inserted
// with their numbers at COMMIT, or numbered at once by a bulk statement (creditUsers with publishNumbered). Either way
// a topic's numbers stay 1..n with no gap or repeat, in commit order, and one transaction's messages of a topic are
// numbered in the order they were written, whatever else the transaction published on that topic; a rolled-back
// transaction or savepoint leaves no message and no gap. Those are the topics some instance listens to; a topic nobody
// listens to gets no balance message, and its number moves on when its last listener leaves (0033-live-unheard).
import { randomUUID } from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/index.ts'
import { LIVE_BUCKETS_KEY, liveBucket } from '../src/db/migrations/0033-live-unheard.ts'
import type { DB } from '../src/db/schema.ts'
import { creditUsers } from '../src/modules/ledger/index.ts'
import { systemAccount, transfer, userAccount } from '../src/modules/ledger/service.ts'
import { countListener, uncountListener } from '../src/modules/live/hub.ts'
import { type Publication, publish, purgeOutbox } from '../src/modules/live/publish.ts'
import { addOffChainAssets, dbKind, freshDatabase, newUser } from './helpers.ts'

interface Row {
  id: string
  topic: string
  seq: string | null
  tx: string
  kind: string
  name: string | null
  balance: string | null
  coin: string | null
  account: string | null
}

describe(`live balance messages numbered as written (${dbKind})`, () => {
  let db: Database
  let drop: () => Promise<void>
  let chain: string
  const users: string[] = []
  /** Each user's available USDT account. */
  const accounts: string[] = []
  let keys = 0

  beforeAll(async () => {
    ;({ db, drop } = await freshDatabase())
    await addOffChainAssets(db)
    chain = await systemAccount(db, 'USDT', 'chain')
    for (let i = 0; i < 3; i++) await listenedUser()
  })

  /** A new user in the app: an instance listens to the user's topic, as while a page of theirs is open. */
  async function listenedUser() {
    const id = await newUser(db)
    await countListener(db, `user:${id}`)
    users.push(id)
    accounts.push(await userAccount(db, id, 'USDT', 'available'))
    return id
  }
  afterAll(() => drop())

  const move = (trx: Transaction<DB>, debit: string, credit: string, amount = 1n) =>
    transfer(trx, { debit, credit, asset: 'USDT', amount, type: 'deposit', key: `k${keys++}` })
  const job = (trx: Transaction<DB>, topic: Publication['topic'], name: string) =>
    publish(trx, topic, { kind: 'job', name } as Publication['event'])

  const outboxRows = async (trx: Transaction<DB>) =>
    Number((await sql<{ n: string }>`select count(*) as n from live_outbox where seq is null`.execute(trx)).rows[0]?.n)
  const rows = async () =>
    (
      await sql<Row>`
        select o.id::text as id, o.topic, o.seq::text as seq, o.xmin::text as tx, o.payload->>'kind' as kind,
          o.payload->>'name' as name, o.payload->>'balance' as balance, o.payload->>'coin' as coin,
          o.payload->>'account' as account
        from live_outbox o order by o.id`.execute(db)
    ).rows

  /**
   * Every row numbered; each topic's numbers are 1..n with no gap or repeat and its counter is n; within one
   * transaction a topic's rows are numbered in id (write) order. From the `sequential`-th row on, transactions
   * committed one after another, so a topic's numbers follow the ids across transactions there too.
   */
  async function check(sequential?: number) {
    const all = await rows()
    expect(all.filter((row) => row.seq === null)).toEqual([])
    for (const topic of new Set(all.map((row) => row.topic))) {
      const mine = all.filter((row) => row.topic === topic)
      const seqs = mine.map((row) => Number(row.seq))
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs.map((_, i) => i + 1))
      if (sequential !== undefined) {
        const later = all
          .slice(sequential)
          .filter((row) => row.topic === topic)
          .map((row) => Number(row.seq))
        expect(later).toEqual(later.map((_, i) => seqs.length - later.length + i + 1))
      }
      for (const tx of new Set(mine.map((row) => row.tx))) {
        const ofTx = mine.filter((row) => row.tx === tx).map((row) => Number(row.seq))
        expect(ofTx).toEqual([...ofTx].sort((a, b) => a - b))
      }
      const counter = await db.selectFrom('live_topics').select('seq').where('topic', '=', topic).executeTakeFirst()
      expect(Number(counter?.seq)).toBe(seqs.length)
    }
    return all
  }

  /** The last balance message of each account of a user some instance listens to equals its balance. */
  async function balancesMatch() {
    const all = await rows()
    const accountsNow = await db
      .selectFrom('ledger_accounts')
      .innerJoin('live_topics', (join) => join.on('topic', '=', sql<string>`'user:' || user_id`))
      .select(['user_id', 'asset', 'kind', 'balance'])
      .where('listeners', '>', 0)
      .execute()
    for (const account of accountsNow) {
      const last = all
        .filter(
          (row) =>
            row.topic === `user:${account.user_id}` &&
            row.kind === 'balance' &&
            row.coin === account.asset &&
            row.account === account.kind,
        )
        .at(-1)
      expect(last?.balance).toBe(String(account.balance))
    }
  }

  it('numbers a transfer’s balances at COMMIT; a rolled-back transaction or savepoint leaves no message and no gap', async () => {
    await db.transaction().execute(async (trx) => {
      for (const account of accounts) await move(trx, chain, account, 1000n)
      // Pending until COMMIT: no row yet.
      expect(await outboxRows(trx)).toBe(0)
    })
    await expect(
      db.transaction().execute(async (trx) => {
        await move(trx, accounts[0] as string, accounts[1] as string)
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    await db.transaction().execute(async (trx) => {
      await move(trx, accounts[0] as string, accounts[1] as string)
      await sql`savepoint s`.execute(trx)
      await move(trx, accounts[1] as string, accounts[2] as string)
      await sql`rollback to savepoint s`.execute(trx)
      await move(trx, accounts[2] as string, accounts[0] as string)
    })
    const all = await check(0)
    expect(all.filter((row) => row.topic === `user:${users[1]}`).map((row) => row.balance)).toEqual(['1000', '1001'])
    expect(all.filter((row) => row.topic === `user:${users[2]}`).map((row) => row.balance)).toEqual(['1000', '999'])
    await balancesMatch()
  })

  it('keeps the write order of balances and other messages of one topic in one transaction', async () => {
    const topic = `user:${users[0]}` as const
    const before = (await rows()).length
    await db.transaction().execute(async (trx) => {
      await job(trx, topic, 'first')
      await move(trx, accounts[0] as string, accounts[1] as string)
      await job(trx, topic, 'second')
      await move(trx, accounts[1] as string, accounts[0] as string)
      await job(trx, topic, 'third')
    })
    const all = await check(before)
    const mine = all.slice(before).filter((row) => row.topic === topic)
    expect(mine.map((row) => row.name ?? row.kind)).toEqual(['first', 'balance', 'second', 'balance', 'third'])
    await balancesMatch()
  })

  it('numbers more balances than are kept pending, and more than the few numbered one by one, in write order', async () => {
    const before = (await rows()).length
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 60; i++) {
        await move(trx, accounts[i % 3] as string, accounts[(i + 1) % 3] as string)
        if (i % 10 === 0) await job(trx, `user:${users[i % 3]}`, `job-${i}`)
      }
      // The 6 jobs, and the balances written past the pending size.
      expect(await outboxRows(trx)).toBeGreaterThan(6)
    })
    await check(before)
    await balancesMatch()
    // Past the set statements' threshold with only pending messages and rows written past the pending size.
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 40; i++) await move(trx, accounts[i % 3] as string, accounts[(i + 2) % 3] as string)
    })
    await check(before)
    await balancesMatch()
  })

  it('numbers transactions of both kinds that commit at once without a gap or a repeat', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          if (i % 2 === 0) await job(trx, `user:${users[i % 3]}`, `concurrent-${i}`)
          await move(trx, accounts[i % 3] as string, accounts[(i + 1) % 3] as string)
          if (i % 3 === 0) await move(trx, accounts[(i + 2) % 3] as string, accounts[i % 3] as string)
        }),
      ),
    )
    await check()
    await balancesMatch()
  })

  /** A credit of each user in each asset (two messages on each user's topic). */
  const credits = (amount: number) =>
    sql`select u.id as user_id, a.code as asset, ${amount}::numeric as amount,
      'bulk:' || ${randomUUID()} || ':' || u.id || ':' || a.code as key, 'bulk' as reference
      from users u cross join assets a`

  it('a bulk credit publishes its balances numbered in its own statement, and rolls back without a gap', async () => {
    const before = (await rows()).length
    await db.transaction().execute(async (trx) => {
      await creditUsers(trx, { credits: credits(5), from: 'emission', type: 'settlement', publishNumbered: true })
      // Numbered before COMMIT, in the statement.
      const { rows: unnumbered } = await sql`select 1 from live_outbox where seq is null`.execute(trx)
      expect(unnumbered).toEqual([])
    })
    await expect(
      db.transaction().execute(async (trx) => {
        await creditUsers(trx, { credits: credits(7), from: 'emission', type: 'settlement', publishNumbered: true })
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    await db.transaction().execute(async (trx) => {
      await move(trx, accounts[0] as string, accounts[1] as string)
    })
    const all = await check(before)
    expect(all.slice(before).filter((row) => row.kind === 'balance')).toHaveLength(2 * users.length + 2)
    await balancesMatch()
  })

  it('a bulk credit with an account still missing creates it and publishes every balance once', async () => {
    await listenedUser()
    const before = (await rows()).length
    await db
      .transaction()
      .execute((trx) =>
        creditUsers(trx, { credits: credits(3), from: 'emission', type: 'settlement', publishNumbered: true }),
      )
    const all = await check(before)
    expect(all.slice(before).map((row) => row.topic)).toEqual(
      users.flatMap((user) => [`user:${user}`, `user:${user}`]).sort(),
    )
    await balancesMatch()
  })

  // Two connections at once: on PostgreSQL only (PGlite has one), defined there alone as the *.pg.test.ts files are.
  if (dbKind === 'postgres')
    it('an instance counting itself in as a listener waits for a bulk credit holding the topic, then reads its number', async () => {
      const topic = `user:${users[0]}`
      const bulk = heldOpen(db, (trx) =>
        creditUsers(trx, { credits: credits(2), from: 'emission', type: 'settlement', publishNumbered: true }),
      )
      await bulk.running
      const listening = countListener(db, topic)
      await until(async () => {
        const { rows: waiting } = await sql`
          select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%listeners + 1%'`.execute(db)
        return waiting.length > 0
      })
      bulk.release()
      await bulk.done
      await listening
      const counter = await db.selectFrom('live_topics').select('seq').where('topic', '=', topic).executeTakeFirst()
      const { rows: last } = await sql<{ seq: string }>`
        select max(seq)::text as seq from live_outbox where topic = ${topic}`.execute(db)
      expect(String(counter?.seq)).toBe(last[0]?.seq)
      await uncountListener(db, topic)
      await check()
    })

  it('refuses a bulk credit numbered at once after messages not yet numbered in the same transaction', async () => {
    const before = (await rows()).length
    await expect(
      db.transaction().execute(async (trx) => {
        await job(trx, `user:${users[0]}`, 'before the bulk')
        await creditUsers(trx, { credits: credits(1), from: 'emission', type: 'settlement', publishNumbered: true })
      }),
    ).rejects.toThrow(/numbered messages after unnumbered ones/)
    expect(await check()).toHaveLength(before)
  })

  /** The topic's counter row, if it has one. */
  const counterOf = (topic: string) =>
    db.selectFrom('live_topics').select(['seq', 'listeners']).where('topic', '=', topic).executeTakeFirst()
  /** The numbers of the topic's rows in the outbox. */
  const numbersOf = async (topic: string) =>
    (await rows()).filter((row) => row.topic === topic).map((row) => Number(row.seq))

  it('writes no balance message for a topic nobody listens to; its last listener leaving moves its number on', async () => {
    // Never in the app: no message, no counter.
    const stranger = await newUser(db)
    const strangerAccount = await userAccount(db, stranger, 'USDT', 'available')
    // In the app, then gone.
    const gone = await listenedUser()
    const goneAccount = accounts.at(-1) as string
    await db.transaction().execute((trx) => move(trx, chain, goneAccount, 10n))
    expect(await numbersOf(`user:${gone}`)).toEqual([1])
    await uncountListener(db, `user:${gone}`)
    // Moved on, with no row: a client resuming from 1 finds no row 2 and takes a snapshot.
    expect(await counterOf(`user:${gone}`)).toMatchObject({ seq: '2', listeners: 0 })

    for (let i = 0; i < 3; i++)
      await db.transaction().execute(async (trx) => {
        await move(trx, chain, strangerAccount, 5n)
        await move(trx, goneAccount, accounts[0] as string, 1n)
      })
    expect(await numbersOf(`user:${stranger}`)).toEqual([])
    expect(await counterOf(`user:${stranger}`)).toBeUndefined()
    expect(await numbersOf(`user:${gone}`)).toEqual([1])
    expect(await counterOf(`user:${gone}`)).toMatchObject({ seq: '2', listeners: 0 })
    // The other side of those transfers, listened to, had every message.
    await balancesMatch()

    // Back in the app: every message again, after the hole.
    await countListener(db, `user:${gone}`)
    await db.transaction().execute((trx) => move(trx, chain, goneAccount, 1n))
    expect(await numbersOf(`user:${gone}`)).toEqual([1, 3])
    await balancesMatch()
  })

  it('queues the COMMIT’s numbering once for the first balance message of a transaction, and never for one unheard', async () => {
    const stranger = await userAccount(db, await newUser(db), 'USDT', 'available')
    const other = await userAccount(db, await newUser(db), 'USDT', 'available')
    await db.transaction().execute(async (trx) => {
      await move(trx, chain, stranger, 100n)
      await move(trx, chain, accounts[0] as string, 100n)
    })
    /**
     * What the transaction has queued for its COMMIT runs now (`set constraints all immediate`); the numbering marks
     * the transaction it ran in (`live.sequenced`), so whether it was queued shows. Rolled back: nothing stays.
     */
    const queued = async (work: (trx: Transaction<DB>) => Promise<unknown>) => {
      let ran = false
      await expect(
        db.transaction().execute(async (trx) => {
          await work(trx)
          await sql`set constraints all immediate`.execute(trx)
          const { rows } = await sql<{ ran: boolean }>`
            select current_setting('live.sequenced', true) is not distinct from txid_current()::text as ran`.execute(
            trx,
          )
          ran = rows[0]?.ran ?? false
          throw new Error('rolled back')
        }),
      ).rejects.toThrow('rolled back')
      return ran
    }
    // Two users nobody listens to: nothing to number, nothing queued.
    expect(await queued((trx) => move(trx, stranger, other, 1n))).toBe(false)
    // One of them listened to: its message is numbered at COMMIT.
    expect(await queued((trx) => move(trx, stranger, accounts[0] as string, 1n))).toBe(true)
    expect(await queued((trx) => move(trx, accounts[0] as string, stranger, 1n))).toBe(true)
  })

  it('a bulk credit writes the balance messages of topics listened to only', async () => {
    const listened = await listenedUser()
    const stranger = await newUser(db)
    const gone = await listenedUser()
    await uncountListener(db, `user:${gone}`)
    const before = (await rows()).length
    await db
      .transaction()
      .execute((trx) =>
        creditUsers(trx, { credits: credits(4), from: 'emission', type: 'settlement', publishNumbered: true }),
      )
    const written = (await rows()).slice(before)
    const heard = users.filter((user) => user !== gone)
    expect(written.map((row) => row.topic)).toEqual(heard.flatMap((user) => [`user:${user}`, `user:${user}`]).sort())
    expect(written.filter((row) => row.topic === `user:${listened}`).map((row) => Number(row.seq))).toEqual([1, 2])
    expect(await counterOf(`user:${stranger}`)).toBeUndefined()
    expect(await counterOf(`user:${gone}`)).toMatchObject({ seq: '1', listeners: 0 })
    await balancesMatch()
  })

  it('a transaction that reads from one snapshot writes every balance message', async () => {
    const stranger = await newUser(db)
    const account = await userAccount(db, stranger, 'USDT', 'available')
    await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => move(trx, chain, account, 3n))
    expect(await numbersOf(`user:${stranger}`)).toEqual([1])
  })

  // Two connections at once: on PostgreSQL only.
  if (dbKind === 'postgres') {
    it('an instance counting itself in waits for a transaction that found the topic unheard, until it commits', async () => {
      const stranger = await newUser(db)
      const account = await userAccount(db, stranger, 'USDT', 'available')
      const topic = `user:${stranger}`
      const transfer = heldOpen(db, (trx) => move(trx, chain, account, 2n).then(() => {}))
      await transfer.running
      const listening = countListener(db, topic)
      await until(async () => {
        const { rows: waiting } = await sql`
          select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%listeners + 1%'`.execute(db)
        return waiting.length > 0
      })
      expect(await counterOf(topic)).toBeUndefined()
      transfer.release()
      await transfer.done
      await listening
      // Counted in after that commit: its number (0) covers it, and the next change is written.
      expect(await counterOf(topic)).toMatchObject({ seq: '0', listeners: 1 })
      await db.transaction().execute((trx) => move(trx, chain, account, 1n))
      expect(await numbersOf(topic)).toEqual([1])
      await uncountListener(db, topic)
    })

    it('a transfer that cannot have the bucket while an instance counts itself in writes its messages', async () => {
      const stranger = await newUser(db)
      const account = await userAccount(db, stranger, 'USDT', 'available')
      const topic = `user:${stranger}`
      // An instance holding the topic's bucket exclusively, as countListener does while it counts itself in.
      const counting = heldOpen(db, async (trx) => {
        await sql`select pg_advisory_xact_lock(${LIVE_BUCKETS_KEY}, ${liveBucket(topic)})`.execute(trx)
      })
      await counting.running
      // Neither waits for it nor skips: written, by a transfer and by a bulk credit.
      await db.transaction().execute((trx) => move(trx, chain, account, 1n))
      expect(await numbersOf(topic)).toEqual([1])
      await db
        .transaction()
        .execute((trx) =>
          creditUsers(trx, { credits: credits(1), from: 'emission', type: 'settlement', publishNumbered: true }),
        )
      expect(await numbersOf(topic)).toEqual([1, 2, 3])
      counting.release()
      await counting.done
    })
  }

  it('purges by id the numbered rows written before the retention, and nothing after the first one within it', async () => {
    const all = await rows()
    const [first, second, third] = all.slice(-3).map((row) => row.id)
    // Older than the retention: every row up to the last three, and the last one (written after a recent one).
    await sql`update live_outbox set created_at = now() - interval '2 hours' where id < ${first} or id = ${third}`.execute(
      db,
    )
    await purgeOutbox(db, 60)
    expect((await rows()).map((row) => row.id)).toEqual([first, second, third])
    await sql`update live_outbox set created_at = now() - interval '2 hours'`.execute(db)
    await purgeOutbox(db, 60)
    expect(await rows()).toEqual([])
    // The counters stay.
    expect(
      Number(
        (await db.selectFrom('live_topics').select('seq').where('topic', '=', `user:${users[0]}`).executeTakeFirst())
          ?.seq,
      ),
    ).toBeGreaterThan(0)
  })
})

/** Resolves once `done` holds, looking again every 20 ms. */
async function until(done: () => Promise<boolean>) {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 20))
}

/** A transaction kept open on its own connection: `running` once `work` has run in it; it commits on `release()`. */
function heldOpen(db: Database, work: (trx: Transaction<DB>) => Promise<void>) {
  let release!: () => void
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  let ran!: () => void
  const running = new Promise<void>((resolve) => {
    ran = resolve
  })
  const done = db.transaction().execute(async (trx) => {
    await work(trx)
    ran()
    await gate
  })
  return { running, release, done }
}
