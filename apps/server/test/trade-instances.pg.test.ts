// Two server instances, each with its own connection pool and its own in-memory book, trading on one PostgreSQL at the
// same moment: the market row serializes their batches, and each rebuilds its book when the other moved it on.
// PostgreSQL only (a *.pg.test.ts file): PGlite is one session in one process.
import { randomUUID } from 'node:crypto'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Database, migrate, openDatabase } from '../src/db/index.ts'
import { seedBusinessConfig } from '../src/modules/config/service.ts'
import { systemAccount, transfer, userAccount } from '../src/modules/ledger/service.ts'
import { TradeMarket } from '../src/modules/trade/market.ts'
import { expectSound, expectTradesAccountedFor, FUNDS, random, rebuilt, stream, wallet } from './fixtures/trade.ts'
import { addOffChainAssets, createPostgresDatabase, creditAvailable, postgresAdminUrl } from './helpers.ts'

describe('quick trade on two instances at once (postgres)', () => {
  let drop: () => Promise<void>
  let pools: Database[] = []
  let a: TradeMarket
  let b: TradeMarket
  // A fresh database per test, with two pools on it: the two instances.
  beforeEach(async () => {
    const adminUrl = postgresAdminUrl()
    const created = await createPostgresDatabase(adminUrl)
    drop = created.drop
    pools = [await openDatabase({ url: created.url }), await openDatabase({ url: created.url })]
    const [first, second] = pools as [Database, Database]
    await migrate(first)
    await addOffChainAssets(first)
    await seedBusinessConfig(first)
    a = new TradeMarket(first, 'PLG')
    b = new TradeMarket(second, 'PLG')
  })
  afterEach(async () => {
    for (const pool of pools) await pool.destroy()
    await drop()
  })

  const db = () => a.db
  async function user(funds: { PLG?: bigint; USDT?: bigint }) {
    const { id } = await db()
      .insertInto('users')
      .values({ address: `trader-${randomUUID()}`, parent_id: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const [asset, amount] of Object.entries(funds)) if (amount) await creditAvailable(db(), id, asset, amount)
    return { id, userId: BigInt(id) }
  }

  it('two buyers on two instances race for one sell order: exactly one gets it, every time', async () => {
    for (let round = 0; round < 10; round++) {
      const seller = await user({ PLG: 10n * PLG })
      const buyers = [await user({ USDT: 5n * USDT }), await user({ USDT: 5n * USDT })]
      await (round % 2 ? a : b).placeLimit({ userId: seller.userId, side: 'sell', price: 500_000n, amount: 10n * PLG })
      const orders = await Promise.all(
        buyers.map((buyer, i) =>
          (i === 0 ? a : b).placeLimit({ userId: buyer.userId, side: 'buy', price: 500_000n, amount: 10n * PLG }),
        ),
      )
      expect(orders.map((o) => o.status).sort()).toEqual(['completed', 'pending'])
      const held = await Promise.all(buyers.map((buyer) => wallet(db(), buyer)))
      expect(held.map((h) => h.PLG.available).sort()).toEqual([0n, 10n * PLG - 10_000_000n])
      // The loser's order rests with its USDT locked; cancel it so the next round starts from an empty book.
      const loser = orders.find((o) => o.status === 'pending')
      if (loser) await b.cancel(loser.userId, loser.id)
      expect(await a.read(({ book }) => book.orders())).toEqual([])
    }
    await expectSound(db())
  })

  it('a batch that waits for an account another transaction moves locks and moves its newest balance', async () => {
    const buyer = await user({ USDT: 10n * USDT })
    const account = await userAccount(db(), buyer.id, 'USDT', 'available')
    const chain = await systemAccount(db(), 'USDT', 'chain')
    // Another module's transaction (on the second pool) spends 5 of the buyer's 10 USDT and holds the account.
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let moved = () => {}
    const spent = new Promise<void>((resolve) => {
      moved = resolve
    })
    const other = b.db.transaction().execute(async (trx) => {
      await transfer(trx, {
        debit: account,
        credit: chain,
        asset: 'USDT',
        amount: 5n * USDT,
        type: 'admin_adjustment',
        key: randomUUID(),
      })
      moved()
      await held
    })
    await spent
    // The batch read 10 available before the lock; it locks 4 of them once the other transaction has committed.
    let done = false
    const order = a.placeLimit({ userId: buyer.userId, side: 'buy', price: 500_000n, amount: 8n * PLG }).finally(() => {
      done = true
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(done).toBe(false)
    release()
    await other
    expect((await order).status).toBe('pending')
    expect((await wallet(db(), buyer)).USDT).toEqual({ available: 1n * USDT, locked: 4n * USDT })
    await a.cancel(buyer.userId, (await order).id)
    await expectSound(db())
  })

  it('random streams from both instances at once leave both books equal to the database, every trade accounted for', async () => {
    const users = []
    for (let i = 0; i < 8; i++) users.push(await user(FUNDS))
    await Promise.all([stream(a, users, random(11), 300), stream(b, users, random(12), 300)])
    const [fromA, fromB] = await Promise.all([a.read(({ book }) => book.orders()), b.read(({ book }) => book.orders())])
    // Something rests to compare; how much depends on how the two streams interleave (runs have left as few as 4).
    expect(fromA.length).toBeGreaterThan(0)
    expect(fromB).toEqual(fromA)
    expect(await rebuilt(db())).toEqual(fromA)
    await expectSound(db())
    await expectTradesAccountedFor(db(), users)
  })
})
