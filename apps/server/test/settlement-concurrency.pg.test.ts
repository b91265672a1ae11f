// Two instances settle the same day at the same moment, each with its own connection pool: the day is settled once.
// And users move money while the day is paid: their transfers and the payment batches never deadlock. PostgreSQL only
// (a *.pg.test.ts file, see vitest.config.ts): PGlite is one session in one process, so there is no second session to
// race with.
import { describe, expect, it } from 'vitest'
import { type Database, migrate, openDatabase } from '../src/db/index.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { checkInvariants, transfer, userAccount } from '../src/modules/ledger/service.ts'
import { settleThrough } from '../src/modules/settlement/service.ts'
import {
  PLG_CODE,
  paymentsFor,
  prng,
  seedScenario,
  settlementState,
  storeConfig,
  UNGUARDED,
} from './fixtures/settlement.ts'
import { addOffChainAssets, createPostgresDatabase, creditAvailable, postgresAdminUrl } from './helpers.ts'

const DAY = '2025-08-01'

describe('settlement run by two instances at once (postgres)', () => {
  it('two pools settling the same days concurrently credit everything once, as one instance alone would', async () => {
    const adminUrl = postgresAdminUrl()
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
        // The circuit breaker would hold the scenario's growing days: off here (its own tests: economics.test.ts).
        await storeConfig(db, { ...DEFAULT_BUSINESS_CONFIG, ...UNGUARDED })
        await seedScenario(db, { seed: 5, users: 150, day: DAY, spread: 3 })
      }
      // Small batches so the two interleave batch by batch on the run rows.
      const batches = { a: 0, b: 0 }
      const [fromA, fromB] = await Promise.all([
        settleThrough(a, DAY, { product: PLG_CODE, batchSize: 4, onBatch: () => batches.a++ }),
        settleThrough(b, DAY, { product: PLG_CODE, batchSize: 4, onBatch: () => batches.b++ }),
      ])
      // Both did part of the work.
      expect(batches.a).toBeGreaterThan(5)
      expect(batches.b).toBeGreaterThan(5)
      await settleThrough(single, DAY, { product: PLG_CODE, batchSize: 4 })

      // Both answer the days they found unsettled with the same totals, the totals of the database settled alone. The
      // one that started later may have found the first days settled already: its days are the last of the other's.
      const [longer, shorter] = fromA.length >= fromB.length ? [fromA, fromB] : [fromB, fromA]
      expect(shorter.length).toBeGreaterThan(0)
      const totals = (list: typeof fromA) => list.map((d) => [d.day, d.status, d.totals, d.expired])
      expect(totals(longer.slice(longer.length - shorter.length))).toEqual(totals(shorter))
      const expected = await settlementState(single)
      const actual = await settlementState(a)
      expect(actual.outputs.length).toBeGreaterThan(100)
      expect(actual.transfers).toEqual(paymentsFor(actual.outputs))
      expect(actual).toEqual(expected)
      expect(await checkInvariants(a)).toEqual([])
    } finally {
      for (const db of pools) await db.destroy()
      await shared.drop()
      await alone.drop()
    }
  }, 120_000)

  it('transfers between users run while the day is paid: none deadlocks, and the day pays the same', async () => {
    const adminUrl = postgresAdminUrl()
    const shared = await createPostgresDatabase(adminUrl)
    const alone = await createPostgresDatabase(adminUrl)
    const pools: Database[] = []
    try {
      const open = async (url: string) => {
        const db = await openDatabase({ url })
        pools.push(db)
        return db
      }
      const settler = await open(shared.url)
      const users = await open(shared.url)
      const single = await open(alone.url)
      const seed = async (db: Database) => {
        await migrate(db)
        await addOffChainAssets(db)
        await storeConfig(db, { ...DEFAULT_BUSINESS_CONFIG, ...UNGUARDED })
        return seedScenario(db, { seed: 9, users: 120, day: DAY, spread: 3 })
      }
      await seed(single)
      const ids = (await seed(settler)).users.map((u) => u.id)
      for (const id of ids) await creditAvailable(settler, id, PLG_CODE, 1_000_000n)

      // While the days are paid, 16 users (all paid in the same payment batch of 40 records) send each other 1 base
      // unit, in both directions between the same accounts, and lock money on their locked account: every transaction
      // must commit at its first attempt. A transfer locks its two accounts in id order; a payment batch that visited
      // its accounts in another order deadlocks here (tried with descending order: 'deadlock detected' on every run).
      const random = prng(3)
      const busy = 16
      let done = false
      let made = 0
      const traffic = async (worker: number) => {
        for (let n = 0; !done; n++) {
          const from = ids[random.int(busy)] as string
          const to = ids[random.int(busy)] as string
          if (from === to) continue
          await users.transaction().execute(async (trx) => {
            const key = `test:${worker}:${n}`
            await transfer(trx, {
              debit: await userAccount(trx, from, PLG_CODE, 'available'),
              credit: await userAccount(trx, to, PLG_CODE, 'available'),
              asset: PLG_CODE,
              amount: 1n,
              type: 'admin_adjustment',
              key: `${key}:pay`,
            })
            await transfer(trx, {
              debit: await userAccount(trx, to, PLG_CODE, 'available'),
              credit: await userAccount(trx, to, PLG_CODE, 'locked'),
              asset: PLG_CODE,
              amount: 1n,
              type: 'admin_adjustment',
              key: `${key}:lock`,
            })
          })
          made++
        }
      }
      const workers = [1, 2, 3, 4].map(traffic)
      const days = await settleThrough(settler, DAY, { product: PLG_CODE, batchSize: 40 })
      done = true
      await Promise.all(workers)
      await settleThrough(single, DAY, { product: PLG_CODE, batchSize: 4 })

      expect(days.length).toBeGreaterThanOrEqual(3)
      expect(made).toBeGreaterThan(50)
      const state = await settlementState(settler)
      expect(state.transfers).toEqual(paymentsFor(state.outputs))
      const expected = await settlementState(single)
      expect(state.outputs).toEqual(expected.outputs)
      expect(state.transfers).toEqual(expected.transfers)
      expect(await checkInvariants(settler)).toEqual([])
    } finally {
      for (const db of pools) await db.destroy()
      await shared.drop()
      await alone.drop()
    }
  }, 180_000)
})
