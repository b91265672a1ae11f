// A transaction whose connection breaks during its COMMIT: the server is asked what became of it (txid_status, on
// another connection) and work that was rolled back runs again (src/db/transient.ts). PostgreSQL only (a *.pg.test.ts
// file): it ends a backend in the middle of a COMMIT, made slow by a deferred trigger that runs at commit time.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../src/db/index.ts'
import { retryTransient } from '../src/db/transient.ts'
import { createPostgresDatabase } from './helpers.ts'

describe('a COMMIT cut off by a lost connection (postgres)', () => {
  let drop: () => Promise<void>
  let db: Database
  let other: Database
  beforeAll(async () => {
    const adminUrl = process.env.TEST_DATABASE_URL
    if (!adminUrl) throw new Error('TEST_DATABASE_URL must name a PostgreSQL cluster')
    const created = await createPostgresDatabase(adminUrl)
    drop = created.drop
    db = await openDatabase({ url: created.url })
    other = await openDatabase({ url: created.url })
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
})
