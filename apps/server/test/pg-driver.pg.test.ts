// The server's PostgreSQL driver (src/db/pg-driver.ts, under the tracking dialect of src/db/transient.ts): a
// transaction's BEGIN goes out with its first statement, in one write and one round trip, a transaction that runs no
// statement sends nothing, and a statement declared prepared is parsed once per connection. PostgreSQL only (a
// *.pg.test.ts file): a loopback proxy in front of the cluster records what the driver writes.
import { CompiledQuery, type Generated, Kysely, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { prepared } from '../src/db/pg-driver.ts'
import { TrackingPostgresDialect } from '../src/db/transient.ts'
import { proxyTo } from './fixtures/tcp-proxy.ts'
import { createPostgresDatabase, postgresAdminUrl } from './helpers.ts'

interface T {
  notes: { id: Generated<number>; text: string }
}

/** A statement declared prepared: parsed once per connection, under its name. */
const NOTE = prepared('pg_driver_test_note', 'insert into notes (text) values ($1) returning id')

describe('the PostgreSQL driver (postgres)', () => {
  let drop: () => Promise<void>
  let proxy: { url: string; close: () => void } | undefined
  /** One connection through the proxy, so that each test sees the same client again. */
  let db: Kysely<T>
  /** Straight to the server: what others see. */
  let other: Kysely<T>
  /** Through the proxy too, with prepared statements off (as behind a pooler that does not keep them). */
  let unnamed: Kysely<T>
  /** What the client wrote, one entry per chunk the proxy received (a write of the client, on loopback). */
  let writes: string[] = []
  beforeAll(async () => {
    const adminUrl = postgresAdminUrl()
    const created = await createPostgresDatabase(adminUrl)
    drop = created.drop
    proxy = await proxyTo(created.url, (client, connect) => {
      const server = connect()
      client.on('data', (chunk) => {
        writes.push(chunk.toString('latin1'))
        server.write(chunk)
      })
      server.pipe(client)
      client.on('error', () => server.destroy())
      server.on('error', () => client.destroy())
      client.on('close', () => server.destroy())
    })
    db = new Kysely<T>({
      dialect: new TrackingPostgresDialect({ pool: new pg.Pool({ connectionString: proxy.url, max: 1 }) }),
    })
    unnamed = new Kysely<T>({
      dialect: new TrackingPostgresDialect({
        pool: new pg.Pool({ connectionString: proxy.url, max: 1 }),
        preparedStatements: false,
      }),
    })
    other = new Kysely<T>({
      dialect: new TrackingPostgresDialect({ pool: new pg.Pool({ connectionString: created.url }) }),
    })
    await sql`create table notes (id serial primary key, text text not null check (text <> 'refused'))`.execute(other)
    await sql`select 1`.execute(db)
  })
  afterAll(async () => {
    await db?.destroy()
    await unnamed?.destroy()
    await other?.destroy()
    proxy?.close()
    await drop?.()
  })
  beforeEach(async () => {
    await sql`truncate notes`.execute(other)
    writes = []
  })

  const texts = async () =>
    (await other.selectFrom('notes').select('text').orderBy('id').execute()).map((row) => row.text)
  /** The transaction's id, as its statements see it (null: none assigned, so not in a transaction that wrote). */
  const xidOf = (trx: Kysely<T>) =>
    sql<{ xid: string | null }>`select txid_current_if_assigned()::text as xid`.execute(trx).then((r) => r.rows[0]?.xid)

  it('sends the BEGIN with the first statement, in one write, and commits it', async () => {
    const result = await db.transaction().execute(async (trx) => {
      const inserted = await trx.insertInto('notes').values({ text: 'one' }).returning('id').executeTakeFirstOrThrow()
      // Not committed yet: the statement ran inside the transaction.
      expect(await texts()).toEqual([])
      await trx.insertInto('notes').values({ text: 'two' }).execute()
      return inserted.id
    })
    expect(result).toBeGreaterThan(0)
    expect(await texts()).toEqual(['one', 'two'])
    // The BEGIN with the first insert, the second insert, the transaction's id (db/transient.ts), the COMMIT.
    expect(writes).toHaveLength(4)
    expect(writes[0]).toContain('begin\0')
    expect(writes[0]).toContain('insert into "notes"')
    expect(writes[1]).toContain('insert into "notes"')
    expect(writes[1]).not.toContain('begin\0')
    expect(writes[2]).toContain('txid_current_if_assigned')
    expect(writes[3]).toContain('commit\0')
  })

  it('runs a first statement without parameters inside the transaction too, in one Query message', async () => {
    await db.transaction().execute(async (trx) => {
      await sql`insert into notes (text) values ('plain')`.execute(trx)
      expect(await xidOf(trx)).toMatch(/^\d+$/)
      expect(await texts()).toEqual([])
    })
    expect(await texts()).toEqual(['plain'])
    expect(writes[0]).toContain("begin;\ninsert into notes (text) values ('plain')\0")
  })

  it('runs a first text of several statements, as the simple protocol always did, and rolls it all back', async () => {
    const two = sql`insert into notes (text) values ('a'); insert into notes (text) values ('b')`
    await db.transaction().execute((trx) => two.execute(trx))
    expect(await texts()).toEqual(['a', 'b'])
    await expect(
      db.transaction().execute(async (trx) => {
        await two.execute(trx)
        throw new Error('after the statements')
      }),
    ).rejects.toThrow('after the statements')
    await expect(
      db.transaction().execute((trx) => sql`insert into notes (text) values ('c'); select 1 / 0`.execute(trx)),
    ).rejects.toMatchObject({ code: '22012' })
    expect(await texts()).toEqual(['a', 'b'])
  })

  it('rolls back a transaction whose first statement fails, keeping the error, and the connection stays usable', async () => {
    const error = await db
      .transaction()
      .execute((trx) => trx.insertInto('notes').values({ text: 'refused' }).execute())
      .catch((e: unknown) => e as { code?: string; constraint?: string })
    expect(error).toMatchObject({ code: '23514', constraint: 'notes_text_check' })
    expect(writes.at(-1)).toContain('rollback\0')
    // No transaction left open (nor aborted) on the one connection: this insert commits on its own, others see it.
    await db.insertInto('notes').values({ text: 'after' }).execute()
    expect(await texts()).toEqual(['after'])
  })

  it('rolls back every statement when a later one fails', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ text: 'kept?' }).execute()
        await trx.insertInto('notes').values({ text: 'refused' }).execute()
      }),
    ).rejects.toMatchObject({ code: '23514' })
    expect(await texts()).toEqual([])
  })

  it('sends nothing for a transaction that runs no statement, whether it returns or throws', async () => {
    expect(await db.transaction().execute(async () => 'nothing')).toBe('nothing')
    await expect(
      db.transaction().execute(async () => {
        throw new Error('before any statement')
      }),
    ).rejects.toThrow('before any statement')
    expect(writes).toEqual([])
  })

  it('opens the transaction with its isolation level and access mode', async () => {
    const level = await db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(async (trx) => {
        const { rows } = await sql<{ level: string }>`select current_setting('transaction_isolation') as level`.execute(
          trx,
        )
        return rows[0]?.level
      })
    expect(level).toBe('serializable')
    expect(writes[0]).toContain('start transaction isolation level serializable;\nselect')
    await expect(
      db
        .transaction()
        .setAccessMode('read only')
        .execute((trx) => trx.insertInto('notes').values({ text: 'read only' }).execute()),
    ).rejects.toMatchObject({ code: '25006' })
    expect(await texts()).toEqual([])
  })

  it('parses a declared statement once per connection, then only binds and executes it, also after a failed run', async () => {
    const note = (on: Kysely<T>, text: string) => on.executeQuery(CompiledQuery.raw(NOTE, [text]))
    // First run, with the transaction's BEGIN: the Parse names the statement.
    await db.transaction().execute((trx) => note(trx, 'one'))
    expect(writes[0]).toContain('begin\0')
    expect(writes[0]).toContain('pg_driver_test_note\0insert into notes')
    // Later runs: a Bind of the named statement, no text.
    writes = []
    await db.transaction().execute((trx) => note(trx, 'two'))
    await note(db, 'three')
    expect(writes.filter((write) => write.includes('\0pg_driver_test_note\0'))).toHaveLength(2)
    expect(writes.join('')).not.toContain('insert into notes')
    // A run that fails leaves the statement parsed: the next one binds it again.
    await expect(db.transaction().execute((trx) => note(trx, 'refused'))).rejects.toMatchObject({ code: '23514' })
    await note(db, 'four')
    expect(await texts()).toEqual(['one', 'two', 'three', 'four'])
    expect(writes.join('')).not.toContain('insert into notes')

    // Prepared statements off (behind a pooler that does not keep them): the same statement goes unnamed, text and all.
    writes = []
    await unnamed.transaction().execute((trx) => note(trx, 'five'))
    await note(unnamed, 'six')
    expect(writes.join('')).not.toContain('pg_driver_test_note')
    expect(writes.filter((write) => write.includes('insert into notes'))).toHaveLength(2)
    expect((await texts()).slice(-2)).toEqual(['five', 'six'])
  })

  it('outside a transaction, a statement is sent alone', async () => {
    await db.insertInto('notes').values({ text: 'alone' }).execute()
    expect(writes).toHaveLength(1)
    expect(writes[0]).not.toContain('begin\0')
    expect(await texts()).toEqual(['alone'])
  })
})
