import { PGlite } from '@electric-sql/pglite'
import { Kysely, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { PGliteDialect } from './pglite-dialect.ts'
import { type DbFaultHook, isRetryable, noteCommitted, retryTransient, trackingDialect } from './transient.ts'

const terminated = () =>
  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })

describe('retryTransient', () => {
  it('runs the work again after a lost connection or a conflict, and answers its result', async () => {
    const failures = [terminated(), Object.assign(new Error('deadlock'), { code: '40P01' })]
    let runs = 0
    const result = await retryTransient(async () => {
      runs++
      const failure = failures.shift()
      if (failure) throw failure
      return 'done'
    })
    expect(result).toBe('done')
    expect(runs).toBe(3)
  })

  it('never runs again work that committed something, nor after an error that is not transient', async () => {
    let runs = 0
    await expect(
      retryTransient(async () => {
        runs++
        noteCommitted()
        throw terminated()
      }),
    ).rejects.toThrow('terminating connection')
    expect(runs).toBe(1)
    await expect(
      retryTransient(async () => {
        runs++
        throw Object.assign(new Error('duplicate key'), { code: '23505' })
      }),
    ).rejects.toThrow('duplicate key')
    expect(runs).toBe(2)
  })

  it('gives up after its attempts, and a commit inside a nested scope stops the outer one too', async () => {
    let runs = 0
    await expect(
      retryTransient(async () => {
        runs++
        throw new Error('Connection terminated unexpectedly')
      }, 3),
    ).rejects.toThrow('Connection terminated')
    expect(runs).toBe(3)
    let outer = 0
    await expect(
      retryTransient(async () => {
        outer++
        await retryTransient(async () => noteCommitted())
        throw terminated()
      }),
    ).rejects.toThrow()
    expect(outer).toBe(1)
  })

  it('classifies the errors node-postgres and PostgreSQL give for a broken connection', () => {
    expect(isRetryable(terminated())).toBe(true)
    expect(isRetryable(Object.assign(new Error('x'), { code: '08006' }))).toBe(true)
    expect(isRetryable(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true)
    expect(isRetryable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true)
    expect(isRetryable(Object.assign(new Error('x'), { code: '23505' }))).toBe(false)
    expect(isRetryable(null)).toBe(false)
  })
})

// Found by the simulator (docs/simulator.md): BEGIN and ROLLBACK went through the hook, so a process that died inside a
// transaction could not roll it back on PGlite's one session, and the next statement committed the dead one's work.
describe('the database fault hook', () => {
  it('sees each statement and COMMIT once, never BEGIN or ROLLBACK, so a transaction it fails still rolls back', async () => {
    const seen: string[] = []
    let dead = false
    const hook: DbFaultHook = {
      execute: async (statement, _state, run) => {
        if (dead) throw new Error('the process died')
        seen.push(statement)
        return run()
      },
      commitStatus: async () => undefined,
    }
    const pg = new PGlite()
    const db = new Kysely<{ t: { n: number } }>({ dialect: trackingDialect(new PGliteDialect(pg), hook) })
    try {
      await sql`create table t (n int)`.execute(db)
      await db.transaction().execute((trx) => trx.insertInto('t').values({ n: 1 }).execute())
      expect(seen).toEqual(['create table t (n int)', 'insert into "t" ("n") values ($1)', 'commit'])
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto('t').values({ n: 2 }).execute()
          dead = true
          await trx.insertInto('t').values({ n: 3 }).execute()
        }),
      ).rejects.toThrow('the process died')
      dead = false
      expect(await db.selectFrom('t').select('n').execute()).toEqual([{ n: 1 }])
    } finally {
      await db.destroy()
    }
  })
})
