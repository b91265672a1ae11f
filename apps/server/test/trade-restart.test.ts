// The book lives in each process's memory, the truth in the database: a restarted server rebuilds the same book, and a
// server whose book another instance moved on catches up with the orders written since before its next command (a
// failed batch rebuilds it). A random stream of orders, cancels
// and swaps from two app instances on one database keeps every order equal to its fills and every balance equal to
// what the orders say.

import { PLG } from '@solpledge/test-fixtures'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/app.ts'
import type { BookOrder } from '../src/modules/trade/engine.ts'
import {
  bookOf,
  createTradeApp,
  expectSound,
  expectTradesAccountedFor,
  FUNDS,
  random,
  rebuilt,
  stream,
  type Trader,
  trader,
} from './fixtures/trade.ts'
import { dbKind } from './helpers.ts'

describe(`quick trade: restart and several instances (${dbKind})`, () => {
  let t: Awaited<ReturnType<typeof createTradeApp>>
  let second: App
  let users: Trader[]
  beforeAll(async () => {
    t = await createTradeApp()
    users = []
    for (let i = 0; i < 6; i++) users.push(await trader(t, FUNDS))
  })
  afterAll(async () => {
    await second?.close()
    await t.close()
  })

  const startSecond = async () => {
    const app = await buildApp({ db: t.db, config: t.app.config, platform: t.platform })
    await app.ready()
    return app
  }

  it('a restart mid-stream rebuilds exactly the book the running server had', async () => {
    await stream(t.app.trade, users, random(1), 200)
    const live = await bookOf(t.app)
    expect(live.length).toBeGreaterThan(5)
    expect(live.some((o) => o.side === 'buy') && live.some((o) => o.side === 'sell')).toBe(true)
    // Partly filled orders are among them, with their rest.
    const partly = await t.db
      .selectFrom('trade_orders')
      .select('id')
      .where('status', '=', 'pending')
      .where('filled', '>', '0')
      .execute()
    expect(partly.length).toBeGreaterThan(0)
    const kinds = await sql<{ kind: string; status: string }>`
      select distinct kind, status from trade_orders order by 1, 2`.execute(t.db)
    expect(kinds.rows).toEqual([
      { kind: 'limit', status: 'cancelled' },
      { kind: 'limit', status: 'completed' },
      { kind: 'limit', status: 'pending' },
      { kind: 'swap', status: 'completed' },
    ])
    second = await startSecond()
    expect(await bookOf(second)).toEqual(live)
    expect(await rebuilt(t.db)).toEqual(live)
    await expectSound(t.db)
  })

  it('two instances writing on one database: each catches up when the other moved the book on', async () => {
    const next = random(2)
    const markets = [t.app.trade, second.trade]
    const before = markets.map((m) => ({ ...m.books }))
    for (let round = 0; round < 6; round++) {
      // Both at once, then each must see the other's changes.
      await Promise.all([stream(t.app.trade, users, next, 30), stream(second.trade, users, next, 30)])
      const [a, b] = await Promise.all([bookOf(t.app), bookOf(second)])
      expect(b).toEqual(a)
      expect(await rebuilt(t.db)).toEqual(a)
    }
    // Each book followed the other's batches by the orders they wrote, never by reading the whole book again.
    markets.forEach((market, i) => {
      expect(market.books.rebuilt).toBe(before[i]?.rebuilt)
      expect(market.books.caughtUp - (before[i]?.caughtUp ?? 0)).toBeGreaterThan(20)
    })
    const seq = await t.db.selectFrom('trade_markets').select('seq').executeTakeFirstOrThrow()
    expect(Number(seq.seq)).toBeGreaterThan(50)
    await expectSound(t.db)
    await expectTradesAccountedFor(t.db, users)
  })

  it('a batch that fails after it changed the book leaves the book to be rebuilt from the database', async () => {
    const before: BookOrder[] = await bookOf(t.app)
    // A new seller at the best bid: the engine fills it against the book.
    const seller = await trader(t, { PLG: 10n * PLG })
    const best = before.find((o) => o.side === 'buy') as BookOrder
    expect(best).toBeDefined()
    const market = t.app.trade
    // A trigger makes the batch's write of its fills fail, after the engine matched the order.
    await sql`create function trade_test_fail() returns trigger language plpgsql as $$
      begin raise exception 'trade test failure'; end $$`.execute(t.db)
    await sql`create trigger trade_test_fail before insert on trade_fills for each row execute function trade_test_fail()`.execute(
      t.db,
    )
    try {
      await expect(
        market.placeLimit({
          userId: BigInt(seller.id),
          side: 'sell',
          price: best.price,
          amount: PLG,
        }),
      ).rejects.toThrow(/trade test failure/)
    } finally {
      await sql`drop trigger trade_test_fail on trade_fills`.execute(t.db)
      await sql`drop function trade_test_fail()`.execute(t.db)
    }
    // The engine had matched the order; the database did not take it: the next read rebuilds the old book.
    expect(await bookOf(t.app)).toEqual(before)
    await expectSound(t.db)
  })
})
