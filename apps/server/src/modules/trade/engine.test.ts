import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type BookOrder, type Fill, type Incoming, OrderBook, type PlaceResult, type Side } from './engine.ts'

const BASE = 1_000_000_000n // one whole token: 9 decimals
const LOT = 10_000_000n // 0.01 token
const TICK = 100n // 0.0001 USDT: TICK × LOT = BASE, so every fill's value is exact

const book = () => new OrderBook({ baseUnit: BASE, lot: LOT })
/** The same resting orders in the same order, and the same depth on each side. */
const expectSameBook = (actual: OrderBook, expected: OrderBook) => {
  expect(actual.orders()).toEqual(expected.orders())
  expect(actual.depth('buy', 50)).toEqual(expected.depth('buy', 50))
  expect(actual.depth('sell', 50)).toEqual(expected.depth('sell', 50))
}
const limit = (id: number, userId: number, side: Side, ticks: number, lots: number): Incoming => ({
  id: BigInt(id),
  userId: BigInt(userId),
  side,
  price: BigInt(ticks) * TICK,
  amount: BigInt(lots) * LOT,
  immediateOrCancel: false,
})

/**
 * The reference model: a plain list of resting orders, re-sorted for every order. What the engine must do, written as
 * simply as possible.
 */
class ReferenceBook {
  private resting: (BookOrder & { seq: number })[] = []
  private seq = 0

  place(order: Incoming): PlaceResult {
    const buy = order.side === 'buy'
    const candidates = this.resting
      .filter((o) => o.side !== order.side)
      .filter((o) => order.price === null || (buy ? o.price <= order.price : o.price >= order.price))
      .sort((a, b) => (a.price === b.price ? a.seq - b.seq : (buy ? a.price < b.price : a.price > b.price) ? -1 : 1))
    const fills: Fill[] = []
    let remaining = order.amount
    let budget = order.quoteBudget
    let selfTrade = false
    for (const maker of candidates) {
      if (remaining === 0n) break
      if (maker.userId === order.userId) {
        selfTrade = true
        break
      }
      // biome-ignore lint/complexity/useMathMinMax: Math.min does not take bigint
      let take = remaining < maker.remaining ? remaining : maker.remaining
      if (budget !== undefined) {
        const affordable = ((budget * BASE) / maker.price / LOT) * LOT
        if (affordable < take) take = affordable
      }
      if (take === 0n) break
      const quote = (maker.price * take) / BASE
      fills.push({
        makerId: maker.id,
        makerUserId: maker.userId,
        takerId: order.id,
        takerUserId: order.userId,
        price: maker.price,
        amount: take,
        quote,
        makerRemaining: maker.remaining - take,
      })
      maker.remaining -= take
      remaining -= take
      if (budget !== undefined) budget -= quote
      if (maker.remaining > 0n) break
    }
    this.resting = this.resting.filter((o) => o.remaining > 0n)
    const canRest = !order.immediateOrCancel && !selfTrade && order.price !== null
    if (canRest && remaining > 0n) {
      this.resting.push({
        id: order.id,
        userId: order.userId,
        side: order.side,
        price: order.price as bigint,
        remaining,
        seq: this.seq++,
      })
    }
    const quote = fills.reduce((sum, f) => sum + f.quote, 0n)
    return {
      fills,
      filled: order.amount - remaining,
      quote,
      rested: canRest ? remaining : 0n,
      cancelled: canRest ? 0n : remaining,
      selfTrade,
    }
  }

  cancel(id: bigint): BookOrder | undefined {
    const found = this.resting.find((o) => o.id === id)
    this.resting = this.resting.filter((o) => o.id !== id)
    return (
      found && { id: found.id, userId: found.userId, side: found.side, price: found.price, remaining: found.remaining }
    )
  }

  orders(): BookOrder[] {
    const side = (s: Side) =>
      this.resting
        .filter((o) => o.side === s)
        .sort((a, b) =>
          a.price === b.price ? a.seq - b.seq : (s === 'buy' ? a.price > b.price : a.price < b.price) ? -1 : 1,
        )
        .map(({ seq: _, ...order }) => order)
    return [...side('buy'), ...side('sell')]
  }
}

/**
 * Balances as the trade service keeps them, driven only by the engine's results: a limit order locks what it may
 * spend, a fill moves base and quote between the two users (the buyer's price improvement back to available), a
 * cancel or an unfilled immediate rest returns the lock. Nothing may be created or lost.
 */
class Accounts {
  readonly base = new Map<bigint, { available: bigint; locked: bigint }>()
  readonly quote = new Map<bigint, { available: bigint; locked: bigint }>()
  private readonly limits = new Map<bigint, { side: Side; price: bigint }>()

  constructor(
    users: number,
    private readonly start: bigint,
  ) {
    for (let u = 1; u <= users; u++) {
      this.base.set(BigInt(u), { available: start, locked: 0n })
      this.quote.set(BigInt(u), { available: start, locked: 0n })
    }
  }

  private of(map: Map<bigint, { available: bigint; locked: bigint }>, user: bigint) {
    return map.get(user) as { available: bigint; locked: bigint }
  }

  place(order: Incoming, result: PlaceResult) {
    const taker = order.userId
    if (order.price !== null) this.limits.set(order.id, { side: order.side, price: order.price })
    // What the order locks: a sell its amount, a limit buy its amount at its price, a market buy its budget.
    const lockBase = order.side === 'sell' ? order.amount : 0n
    const lockQuote =
      order.side === 'buy'
        ? order.price === null
          ? (order.quoteBudget ?? 0n)
          : (order.price * order.amount) / BASE
        : 0n
    this.move(this.of(this.base, taker), lockBase)
    this.move(this.of(this.quote, taker), lockQuote)
    for (const fill of result.fills) {
      const seller = order.side === 'sell' ? taker : fill.makerUserId
      const buyer = order.side === 'buy' ? taker : fill.makerUserId
      this.of(this.base, seller).locked -= fill.amount
      this.of(this.base, buyer).available += fill.amount
      this.of(this.quote, seller).available += fill.quote
      // The buyer locked at its own limit (a taker's, or the maker's which equals the fill price); a market buy's
      // budget is returned below.
      const buyerLimit = order.side === 'buy' ? order.price : fill.price
      const locked = buyerLimit === null ? fill.quote : (buyerLimit * fill.amount) / BASE
      this.of(this.quote, buyer).locked -= locked
      this.of(this.quote, buyer).available += locked - fill.quote
    }
    // The taker's rest that does not rest returns.
    if (order.side === 'sell') this.move(this.of(this.base, taker), -result.cancelled)
    else if (order.price === null) this.move(this.of(this.quote, taker), -((order.quoteBudget ?? 0n) - result.quote))
    else this.move(this.of(this.quote, taker), -((order.price * result.cancelled) / BASE))
  }

  cancel(order: BookOrder) {
    if (order.side === 'sell') this.move(this.of(this.base, order.userId), -order.remaining)
    else this.move(this.of(this.quote, order.userId), -((order.price * order.remaining) / BASE))
  }

  /** Locks `amount` (negative: unlocks). */
  private move(account: { available: bigint; locked: bigint }, amount: bigint) {
    account.available -= amount
    account.locked += amount
  }

  check(resting: BookOrder[]) {
    const sum = (map: Map<bigint, { available: bigint; locked: bigint }>) =>
      [...map.values()].reduce((s, a) => s + a.available + a.locked, 0n)
    expect(sum(this.base)).toBe(this.start * BigInt(this.base.size))
    expect(sum(this.quote)).toBe(this.start * BigInt(this.quote.size))
    for (const [user, account] of this.base) {
      const onBook = resting.filter((o) => o.userId === user && o.side === 'sell').reduce((s, o) => s + o.remaining, 0n)
      expect(account.locked).toBe(onBook)
    }
    for (const [user, account] of this.quote) {
      const onBook = resting
        .filter((o) => o.userId === user && o.side === 'buy')
        .reduce((s, o) => s + (o.price * o.remaining) / BASE, 0n)
      expect(account.locked).toBe(onBook)
    }
  }
}

type Command =
  | { kind: 'limit'; user: number; side: Side; ticks: number; lots: number; ioc: boolean }
  | { kind: 'market'; user: number; side: Side; lots: number; budgetTicks: number }
  | { kind: 'cancel'; pick: number }

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      user: fc.integer({ min: 1, max: 4 }),
      side: fc.constantFrom<Side>('buy', 'sell'),
      ticks: fc.integer({ min: 4990, max: 5010 }),
      lots: fc.integer({ min: 1, max: 30 }),
      ioc: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('market' as const),
      user: fc.integer({ min: 1, max: 4 }),
      side: fc.constantFrom<Side>('buy', 'sell'),
      lots: fc.integer({ min: 1, max: 60 }),
      budgetTicks: fc.integer({ min: 0, max: 400_000 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
)

describe('OrderBook', () => {
  it('matches like the reference model: same fills, same book, balances conserved', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 120 }), (commands) => {
        const engine = book()
        const reference = new ReferenceBook()
        const accounts = new Accounts(4, 10n ** 20n)
        const placed: bigint[] = []
        let nextId = 1
        for (const c of commands) {
          if (c.kind === 'cancel') {
            const id = placed[c.pick % Math.max(placed.length, 1)]
            if (id === undefined) continue
            const cancelled = engine.cancel(id)
            expect(cancelled).toEqual(reference.cancel(id))
            if (cancelled) accounts.cancel(cancelled)
          } else {
            const order: Incoming =
              c.kind === 'limit'
                ? { ...limit(nextId++, c.user, c.side, c.ticks, c.lots), immediateOrCancel: c.ioc }
                : {
                    id: BigInt(nextId++),
                    userId: BigInt(c.user),
                    side: c.side,
                    price: null,
                    amount: BigInt(c.lots) * LOT,
                    ...(c.side === 'buy' ? { quoteBudget: BigInt(c.budgetTicks) * TICK } : {}),
                    immediateOrCancel: true,
                  }
            const simulated = engine.simulate(order)
            const result = engine.place(order)
            expect(simulated).toEqual(result)
            expect(result).toEqual(reference.place(order))
            expect(result.filled + result.rested + result.cancelled).toBe(order.amount)
            accounts.place(order, result)
            placed.push(order.id)
          }
          const resting = engine.orders()
          expect(resting).toEqual(reference.orders())
          expect(engine.size).toBe(resting.length)
          accounts.check(resting)
        }
        // A book rebuilt from its resting orders in id order is the same book.
        const rebuilt = book()
        rebuilt.load([...engine.orders()].sort((a, b) => (a.id < b.id ? -1 : 1)))
        expectSameBook(rebuilt, engine)
      }),
      { numRuns: 300 },
    )
  })

  it('fills at the maker price in price-time order and rests the rest', () => {
    const engine = book()
    engine.place(limit(1, 1, 'sell', 5001, 2))
    engine.place(limit(2, 2, 'sell', 5000, 1))
    engine.place(limit(3, 3, 'sell', 5000, 1))
    const result = engine.place(limit(4, 4, 'buy', 5002, 5))
    expect(result.fills.map((f) => [f.makerId, f.price, f.amount])).toEqual([
      [2n, 500_000n, LOT],
      [3n, 500_000n, LOT],
      [1n, 500_100n, 2n * LOT],
    ])
    expect(result.quote).toBe(5_000n + 5_000n + 10_002n)
    expect(result.rested).toBe(LOT)
    expect(engine.bestBid()).toBe(500_200n)
    expect(engine.bestAsk()).toBeNull()
    expect(engine.depth('buy', 5)).toEqual([{ price: 500_200n, amount: LOT, orders: 1 }])
  })

  it('expires the taker at its own resting order', () => {
    const engine = book()
    engine.place(limit(1, 2, 'sell', 5000, 1))
    engine.place(limit(2, 1, 'sell', 5000, 1))
    engine.place(limit(3, 2, 'sell', 5001, 1))
    const result = engine.place(limit(4, 1, 'buy', 5001, 3))
    expect(result).toMatchObject({ filled: LOT, rested: 0n, cancelled: 2n * LOT, selfTrade: true })
    expect(engine.orders().map((o) => o.id)).toEqual([2n, 3n])
  })

  it('a market buy spends at most its budget, in whole lots', () => {
    const engine = book()
    engine.place(limit(1, 1, 'sell', 5000, 10))
    // 0.5 USDT buys exactly one whole token (100 lots) at 0.5; 0.0123 USDT buys 2 lots (0.01 each costs 0.005).
    const result = engine.place({
      id: 2n,
      userId: 2n,
      side: 'buy',
      price: null,
      amount: 1000n * LOT,
      quoteBudget: 12_300n,
      immediateOrCancel: true,
    })
    expect(result).toMatchObject({ filled: 2n * LOT, quote: 10_000n, rested: 0n })
    expect(engine.get(1n)?.remaining).toBe(8n * LOT)
  })

  it('cancel removes an order once and empties its level', () => {
    const engine = book()
    engine.place(limit(1, 1, 'buy', 4999, 3))
    expect(engine.cancel(1n)).toEqual({ id: 1n, userId: 1n, side: 'buy', price: 499_900n, remaining: 3n * LOT })
    expect(engine.cancel(1n)).toBeUndefined()
    expect(engine.bestBid()).toBeNull()
    expect(engine.size).toBe(0)
  })

  it('a copy of the book caught up with the changes of the other (reduce, append, cancel) is the same book', () => {
    const command = fc.record({
      cancel: fc.boolean(),
      pick: fc.nat(),
      user: fc.integer({ min: 1, max: 4 }),
      side: fc.constantFrom<Side>('buy', 'sell'),
      ticks: fc.integer({ min: 4995, max: 5005 }),
      lots: fc.integer({ min: 1, max: 6 }),
    })
    fc.assert(
      fc.property(fc.array(fc.array(command, { maxLength: 12 }), { minLength: 1, maxLength: 8 }), (rounds) => {
        const engine = book()
        const copy = book()
        let nextId = 1
        for (const round of rounds) {
          const before = new Map(engine.orders().map((o) => [o.id, o]))
          for (const c of round) {
            const resting = engine.orders()
            if (c.cancel && resting.length > 0) engine.cancel((resting[c.pick % resting.length] as BookOrder).id)
            else engine.place(limit(nextId++, c.user, c.side, c.ticks, c.lots))
          }
          // What the other process reads: every order written since, in id order.
          const after = new Map(engine.orders().map((o) => [o.id, o]))
          for (const id of [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => (a < b ? -1 : 1))) {
            const now = after.get(id)
            if (!now) copy.cancel(id)
            else expect(before.has(id) ? copy.reduce(id, now.remaining) : copy.append(now)).toBe(true)
          }
          expectSameBook(copy, engine)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('a catch-up refuses what no fill can give: more left than before, an order older than one at its price', () => {
    const engine = book()
    engine.place(limit(1, 1, 'sell', 5000, 3))
    engine.place(limit(3, 2, 'sell', 5000, 1))
    expect(engine.reduce(1n, 4n * LOT)).toBe(false)
    expect(engine.reduce(1n, 0n)).toBe(false)
    expect(engine.reduce(9n, LOT)).toBe(false)
    expect(engine.append({ id: 2n, userId: 3n, side: 'sell', price: 500_000n, remaining: LOT })).toBe(false)
    expect(engine.append({ id: 3n, userId: 2n, side: 'sell', price: 500_000n, remaining: LOT })).toBe(false)
    expect(engine.append({ id: 2n, userId: 3n, side: 'sell', price: 500_100n, remaining: LOT })).toBe(true)
    expect(engine.reduce(1n, LOT)).toBe(true)
    expect(engine.depth('sell', 5)).toEqual([
      { price: 500_000n, amount: 2n * LOT, orders: 2 },
      { price: 500_100n, amount: LOT, orders: 1 },
    ])
  })

  it('refuses an order id twice and an empty order', () => {
    const engine = book()
    engine.place(limit(1, 1, 'buy', 4999, 3))
    expect(() => engine.place(limit(1, 2, 'buy', 4999, 1))).toThrow(/already on the book/)
    expect(() => engine.place(limit(2, 2, 'buy', 4999, 0))).toThrow(/positive/)
  })
})
