// Two instances settle the same day at the same moment, each with its own connection pool: the day is settled once.
// PostgreSQL only (a *.pg.test.ts file, see vitest.config.ts): PGlite is one session in one process, so there is no
// second instance to race with.
import { describe, expect, it } from 'vitest'
import { type Database, migrate, openDatabase } from '../src/db/index.ts'
import { checkInvariants } from '../src/modules/ledger/service.ts'
import { settleThrough } from '../src/modules/settlement/service.ts'
import { PLG, seedScenario, settlementState } from './fixtures/settlement.ts'
import { addOffChainAssets, createPostgresDatabase } from './helpers.ts'

const DAY = '2025-08-01'

describe('settlement run by two instances at once (postgres)', () => {
  it('two pools settling the same days concurrently credit everything once, as one instance alone would', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL
    if (!adminUrl) throw new Error('TEST_DATABASE_URL must name a PostgreSQL cluster')
    const shared = await createPostgresDatabase(adminUrl)
    const alone = await createPostgresDatabase(adminUrl)
    const pools: Database[] = []
    const open = (url: string) => {
      const db = openDatabase({ url })
      void db.then((d) => pools.push(d))
      return db
    }
    try {
      const [a, b, single] = await Promise.all([open(shared.url), open(shared.url), open(alone.url)])
      for (const db of [a, single]) {
        await migrate(db)
        await addOffChainAssets(db)
        await seedScenario(db, { seed: 5, users: 150, day: DAY, spread: 3 })
      }
      // Small batches so the two interleave batch by batch on the run rows.
      const batches = { a: 0, b: 0 }
      const [fromA, fromB] = await Promise.all([
        settleThrough(a, DAY, { product: PLG, batchSize: 4, onBatch: () => batches.a++ }),
        settleThrough(b, DAY, { product: PLG, batchSize: 4, onBatch: () => batches.b++ }),
      ])
      // Both did part of the work.
      expect(batches.a).toBeGreaterThan(5)
      expect(batches.b).toBeGreaterThan(5)
      await settleThrough(single, DAY, { product: PLG, batchSize: 4 })

      // Both answer the same settled days with the same totals, the totals of the database settled alone.
      expect(fromA.map((d) => d.day)).toEqual(fromB.map((d) => d.day))
      const totals = (list: typeof fromA) => list.map((d) => [d.day, d.status, d.totals, d.expired])
      expect(totals(fromA)).toEqual(totals(fromB))
      const expected = await settlementState(single)
      const actual = await settlementState(a)
      expect(actual.outputs.length).toBeGreaterThan(100)
      expect(actual.transfers.length).toBe(actual.outputs.length)
      expect(actual).toEqual(expected)
      expect(await checkInvariants(a)).toEqual([])
    } finally {
      for (const db of pools) await db.destroy()
      await shared.drop()
      await alone.drop()
    }
  }, 120_000)
})
