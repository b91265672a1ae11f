// A transaction whose connection breaks during its COMMIT: the server is asked what became of it (txid_status, on
// another connection); work that was rolled back runs again, work that committed answers its result
// (src/db/transient.ts). PostgreSQL only (a *.pg.test.ts file): it ends a backend in the middle of a COMMIT, made slow
// by a deferred trigger that runs at commit time, and loses a COMMIT's answer in a proxy on the way back.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, migrate, openDatabase } from '../src/db/index.ts'
import { retryTransient } from '../src/db/transient.ts'
import { systemAccount, transfer, userAccount } from '../src/modules/ledger/service.ts'
import { proxyTo } from './fixtures/tcp-proxy.ts'
import { createPostgresDatabase, postgresAdminUrl } from './helpers.ts'

describe('a COMMIT cut off by a lost connection (postgres)', () => {
  let drop: () => Promise<void>
  let db: Database
  let other: Database
  let lossy: Database
  let proxy: { url: string; close: () => void }
  /** Set to lose the answer to the next COMMIT: the proxy passes the COMMIT on, then cuts the connection. */
  let loseNextCommitAnswer = false
  /** Whether a transaction's id was asked for by its own statement (the read before COMMIT) since last cleared. */
  let xidRead = false
  beforeAll(async () => {
    const adminUrl = postgresAdminUrl()
    // The migrated schema, for the ledger's transfer.
    const template = process.env.TEST_DATABASE_TEMPLATE
    const created = await createPostgresDatabase(adminUrl, { template })
    drop = created.drop
    db = await openDatabase({ url: created.url })
    if (!template) await migrate(db)
    other = await openDatabase({ url: created.url })
    // Between `lossy` and the server: passes everything on, except that after a COMMIT it was told to lose, the
    // server's answer (the commit done) never reaches the client, whose connection is cut instead.
    proxy = await proxyTo(created.url, (client, connect) => {
      const server = connect()
      let cutting = false
      client.on('data', (chunk) => {
        if (chunk.includes('txid_current_if_assigned')) xidRead = true
        if (loseNextCommitAnswer && chunk.includes('commit\0')) {
          loseNextCommitAnswer = false
          cutting = true
        }
        server.write(chunk)
      })
      server.on('data', (chunk) => {
        if (cutting) {
          client.destroy()
          server.destroy()
        } else client.write(chunk)
      })
      client.on('error', () => server.destroy())
      server.on('error', () => client.destroy())
      client.on('close', () => server.destroy())
    })
    lossy = await openDatabase({ url: proxy.url })
    await sql`create table notes (id serial primary key, text text not null)`.execute(db)
    // The COMMIT of a transaction that wrote a 'slow' note sleeps before it completes: time to end its backend.
    await sql`
      create function slow_commit() returns trigger language plpgsql as $$
      begin
        if new.text like 'slow%' then perform pg_sleep(30); end if;
        return null;
      end $$`.execute(db)
    await sql`
      create constraint trigger slow_commit after insert on notes deferrable initially deferred
      for each row execute function slow_commit()`.execute(db)
  })
  afterAll(async () => {
    await db.destroy()
    await other.destroy()
    await lossy.destroy()
    proxy.close()
    await drop()
  })

  /** Ends the backend that sleeps in a COMMIT, once it does. */
  async function endTheSleepingCommit() {
    for (;;) {
      const { rows } = await sql<{ ended: boolean }>`
        select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and wait_event = 'PgSleep'`.execute(other)
      if (rows.some((row) => row.ended)) return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  it('runs the work again when the server says the transaction was rolled back: one note, not none', async () => {
    let runs = 0
    const ended = endTheSleepingCommit()
    await retryTransient(() =>
      db.transaction().execute(async (trx) => {
        runs++
        await sql`insert into notes (text) values (${runs === 1 ? 'slow once' : 'once'})`.execute(trx)
      }),
    )
    await ended
    expect(runs).toBe(2)
    const { rows } = await sql<{ text: string }>`select text from notes order by id`.execute(other)
    expect(rows.map((row) => row.text)).toEqual(['once'])
  })

  it('answers the result of the work when the server says it committed, though the answer to the COMMIT was lost', async () => {
    let runs = 0
    const result = await retryTransient(() =>
      lossy.transaction().execute(async (trx) => {
        runs++
        await sql`insert into notes (text) values ('answer lost')`.execute(trx)
        loseNextCommitAnswer = true
        return 'done'
      }),
    )
    expect(result).toBe('done')
    expect(runs).toBe(1)
    expect(loseNextCommitAnswer).toBe(false)
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from notes where text = 'answer lost'`.execute(
      other,
    )
    expect(rows[0]?.n).toBe('1')
  })

  it('a ledger transfer whose COMMIT answer was lost is made once: its transaction id came with the transfer', async () => {
    await db.insertInto('assets').values({ code: 'USDT', symbol: 'USDT', decimals: 6 }).execute()
    const user = await db
      .insertInto('users')
      .values({ address: 'lost-commit-answer', parent_id: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    const chain = await systemAccount(db, 'USDT', 'chain')
    const account = await userAccount(db, user.id, 'USDT', 'available')
    let runs = 0
    xidRead = false
    const result = await retryTransient(() =>
      lossy.transaction().execute(async (trx) => {
        runs++
        const made = await transfer(trx, {
          debit: chain,
          credit: account,
          asset: 'USDT',
          amount: 5n,
          type: 'deposit',
          key: 'lost-commit-answer',
        })
        loseNextCommitAnswer = true
        return made
      }),
    )
    expect(runs).toBe(1)
    expect(loseNextCommitAnswer).toBe(false)
    expect(result.created).toBe(true)
    // BEGIN, the transfer (which returned the transaction's id), COMMIT: no read of the id of its own.
    expect(xidRead).toBe(false)
    const row = await db
      .selectFrom('ledger_transfers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('idempotency_key', '=', 'lost-commit-answer')
      .executeTakeFirstOrThrow()
    expect(Number(row.n)).toBe(1)
    const balance = await db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('id', '=', account)
      .executeTakeFirst()
    expect(balance?.balance).toBe('5')
  })
})
