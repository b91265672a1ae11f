// The in-memory matching engine of one quick-trade market ({product}/USDT, docs/trade.md#matching-enginets): limit
// orders with price-time priority, partial fills at the resting (maker) order's price, cancel, and self-trade
// prevention that expires the taker. Prices are USDT base units per whole token and amounts base units of the token,
// all bigint; the configuration guarantees tick × lot is a multiple of one whole token, so every fill's USDT
// value is exact.
//
// The engine holds no money: the trade service locks and moves funds through the ledger in the database transaction
// that persists each command, and rebuilds a book with `load` from the pending orders when the database moved on.

import { IdMap } from './id-map.ts'

export type Side = 'buy' | 'sell'

/** An order resting on the book. */
export interface BookOrder {
  id: bigint
  userId: bigint
  side: Side
  price: bigint
  /** Base units not yet filled. */
  remaining: bigint
}

export interface Incoming {
  id: bigint
  userId: bigint
  side: Side
  /** Limit price; null for a market order (a swap), which takes any price. */
  price: bigint | null
  /** Base units to fill at most (a multiple of the lot). */
  amount: bigint
  /** Market buy only: the most the fills may cost in USDT base units; a level taken in part rounds down to a lot. */
  quoteBudget?: bigint
  /** True: the unfilled rest never rests on the book (swaps). */
  immediateOrCancel: boolean
}

export interface Fill {
  makerId: bigint
  makerUserId: bigint
  takerId: bigint
  takerUserId: bigint
  /** The maker's price. */
  price: bigint
  amount: bigint
  /** price × amount / baseUnit: the USDT base units exchanged. */
  quote: bigint
  /** The maker's rest after this fill; 0 when it is completed. */
  makerRemaining: bigint
}

export interface PlaceResult {
  fills: Fill[]
  /** Base units filled, and their USDT value. */
  filled: bigint
  quote: bigint
  /** Base units put on the book (0 when none). */
  rested: bigint
  /** Base units neither filled nor rested: the rest of an immediate-or-cancel order or of an expired taker. */
  cancelled: bigint
  /** Matching stopped at a resting order of the same user (the taker's rest was cancelled). */
  selfTrade: boolean
}

export interface DepthLevel {
  price: bigint
  amount: bigint
  orders: number
}

interface Resting extends BookOrder {
  /** False once filled or cancelled: the level skips it. */
  live: boolean
  /** The price level it rests in (set when it is added to a side). */
  level: Level
}

interface Level {
  price: bigint
  /** Time order; entries before `head` are all done, later ones may be done too (cancelled). */
  queue: Resting[]
  head: number
  amount: bigint
  count: number
}

/**
 * One side of the book. Levels are kept sorted with the best price LAST, so taking from the best level and removing an
 * emptied one are O(1) at the end of the array; a new price is placed by binary search. Each resting order points at
 * its level, so a fill or a cancel reaches it without a lookup.
 */
class BookSide {
  /** Sorted, best price last. */
  readonly levels: Level[] = []
  private readonly byPrice = new IdMap<Level>()

  /** bids: better = higher; asks: better = lower. */
  constructor(private readonly bids: boolean) {}

  add(order: Resting) {
    let level = this.byPrice.get(order.price)
    if (!level) {
      level = { price: order.price, queue: [], head: 0, amount: 0n, count: 0 }
      this.byPrice.set(order.price, level)
      // First index whose price is better than the new one: worse prices stay before it.
      const levels = this.levels
      const price = order.price
      let lo = 0
      let hi = levels.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        const at = (levels[mid] as Level).price
        if (this.bids ? at > price : at < price) hi = mid
        else lo = mid + 1
      }
      if (lo === levels.length) levels.push(level)
      else levels.splice(lo, 0, level)
    }
    order.level = level
    level.queue.push(order)
    level.amount += order.remaining
    level.count += 1
  }

  /** Takes a live order off its level (a cancel); its `remaining` is left as it was. */
  remove(order: Resting) {
    const level = order.level
    order.live = false
    level.amount -= order.remaining
    level.count -= 1
    this.settle(level)
  }

  /**
   * After orders of the level were filled or cancelled: drops it when it has none left, else moves its head to its
   * first live order (and gives back the queue's done prefix once it is most of it).
   */
  settle(level: Level) {
    if (level.count === 0) return this.drop(level)
    const queue = level.queue
    let head = level.head
    while ((queue[head] as Resting).live === false) head += 1
    if (head > 64 && head * 2 > queue.length) {
      queue.splice(0, head)
      head = 0
    }
    level.head = head
  }

  private drop(level: Level) {
    this.byPrice.delete(level.price)
    const levels = this.levels
    const last = levels.length - 1
    if (levels[last] === level) levels.pop()
    else levels.splice(this.indexOf(level.price), 1)
  }

  private indexOf(price: bigint): number {
    const levels = this.levels
    let lo = 0
    let hi = levels.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const at = (levels[mid] as Level).price
      if (at === price) return mid
      if (this.bids ? at > price : at < price) hi = mid - 1
      else lo = mid + 1
    }
    throw new Error(`engine: no level at ${price}`)
  }

  /** The id of the order queued last at `price` (undefined when no level is there). */
  newestAt(price: bigint): bigint | undefined {
    const queue = this.byPrice.get(price)?.queue
    return queue?.[queue.length - 1]?.id
  }

  best(): bigint | null {
    const levels = this.levels
    return levels.length === 0 ? null : (levels[levels.length - 1] as Level).price
  }

  depth(count: number): DepthLevel[] {
    const out: DepthLevel[] = []
    for (let i = this.levels.length - 1; i >= 0 && out.length < count; i--) {
      const level = this.levels[i] as Level
      out.push({ price: level.price, amount: level.amount, orders: level.count })
    }
    return out
  }

  /** Live orders, best price first, time order within a price. */
  *orders(): Generator<Resting> {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i] as Level
      for (let j = level.head; j < level.queue.length; j++) {
        const order = level.queue[j] as Resting
        if (order.live) yield order
      }
    }
  }
}

export class OrderBook {
  private readonly bids = new BookSide(true)
  private readonly asks = new BookSide(false)
  private readonly byId = new IdMap<Resting>()
  private readonly baseUnit: bigint
  private readonly lot: bigint

  constructor(options: { baseUnit: bigint; lot: bigint }) {
    if (options.baseUnit <= 0n || options.lot <= 0n) throw new Error('engine: baseUnit and lot must be positive')
    this.baseUnit = options.baseUnit
    this.lot = options.lot
  }

  get size(): number {
    return this.byId.size
  }

  /** Matches the order against the other side, then rests its rest unless it is immediate-or-cancel. */
  place(order: Incoming): PlaceResult {
    if (this.byId.has(order.id)) throw new Error(`engine: order ${order.id} is already on the book`)
    const result = this.match(order, true)
    if (result.rested > 0n) this.rest(order.id, order.userId, order.side, order.price as bigint, result.rested)
    return result
  }

  /** What `place` would do, leaving the book as it is. */
  simulate(order: Incoming): PlaceResult {
    return this.match(order, false)
  }

  /** Removes a resting order; returns it with the rest it had, or undefined when it is not on the book. */
  cancel(id: bigint): BookOrder | undefined {
    const order = this.byId.take(id)
    if (!order) return undefined
    ;(order.side === 'buy' ? this.bids : this.asks).remove(order)
    return publicOrder(order)
  }

  get(id: bigint): BookOrder | undefined {
    const order = this.byId.get(id)
    return order ? publicOrder(order) : undefined
  }

  bestBid(): bigint | null {
    return this.bids.best()
  }

  bestAsk(): bigint | null {
    return this.asks.best()
  }

  depth(side: Side, levels: number): DepthLevel[] {
    return (side === 'buy' ? this.bids : this.asks).depth(levels)
  }

  /** Every resting order: bids best price first, then asks best price first; time order within a price. */
  orders(): BookOrder[] {
    return [...this.bids.orders(), ...this.asks.orders()].map(publicOrder)
  }

  /** Rebuild: rests the orders in the given order (time priority = that order) without matching them. */
  load(orders: Iterable<BookOrder>) {
    for (const order of orders) {
      if (this.byId.has(order.id)) throw new Error(`engine: order ${order.id} is already on the book`)
      if (order.remaining <= 0n) throw new Error(`engine: order ${order.id} has nothing to rest`)
      this.rest(order.id, order.userId, order.side, order.price, order.remaining)
    }
  }

  /**
   * Catch-up with what another process did (market.ts): sets a resting order's rest to what the database has. Fills
   * only ever take from it, so a rest above the book's, or none, cannot be; false then, and the caller rebuilds.
   */
  reduce(id: bigint, remaining: bigint): boolean {
    const order = this.byId.get(id)
    if (!order || remaining <= 0n || remaining > order.remaining) return false
    order.level.amount -= order.remaining - remaining
    order.remaining = remaining
    return true
  }

  /**
   * Catch-up: rests an order another process placed behind every order queued at its price, as a rebuild (`load`, in
   * id order) would. False when an order queued there is newer: then its place is not the last one, and the caller
   * rebuilds.
   */
  append(order: BookOrder): boolean {
    if (this.byId.has(order.id) || order.remaining <= 0n) return false
    const newest = (order.side === 'buy' ? this.bids : this.asks).newestAt(order.price)
    if (newest !== undefined && newest > order.id) return false
    this.rest(order.id, order.userId, order.side, order.price, order.remaining)
    return true
  }

  private rest(id: bigint, userId: bigint, side: Side, price: bigint, remaining: bigint) {
    // `level` is set by the side's add.
    const resting: Resting = { id, userId, side, price, remaining, live: true, level: NO_LEVEL }
    this.byId.set(id, resting)
    ;(side === 'buy' ? this.bids : this.asks).add(resting)
  }

  /**
   * The fills the order makes, best level first. With `apply` each fill is also taken from its maker as it is found
   * (a completed maker leaves the book, an emptied level is dropped): a maker is visited once and the decisions only
   * read makers not yet visited, so the fills are those of matching first and applying after.
   */
  private match(order: Incoming, apply: boolean): PlaceResult {
    if (order.amount <= 0n) throw new Error('engine: amount must be positive')
    const buy = order.side === 'buy'
    const side = buy ? this.asks : this.bids
    const levels = side.levels
    const limit = order.price
    const userId = order.userId
    const fills: Fill[] = []
    let remaining = order.amount
    let budget = order.quoteBudget
    let quoteTotal = 0n
    let selfTrade = false
    let stopped = false
    for (let i = levels.length - 1; i >= 0 && !stopped; i--) {
      const level = levels[i] as Level
      const price = level.price
      if (limit !== null && (buy ? price > limit : price < limit)) break
      const queue = level.queue
      let touched = false
      for (let j = level.head; j < queue.length; j++) {
        const maker = queue[j] as Resting
        if (!maker.live) continue
        if (maker.userId === userId) {
          selfTrade = true
          stopped = true
          break
        }
        const makerRemaining = maker.remaining
        // biome-ignore lint/complexity/useMathMinMax: Math.min does not take bigint
        let take = remaining < makerRemaining ? remaining : makerRemaining
        if (budget !== undefined) {
          const affordable = ((budget * this.baseUnit) / price / this.lot) * this.lot
          if (affordable < take) take = affordable
          if (take === 0n) {
            stopped = true
            break
          }
        }
        const quote = (price * take) / this.baseUnit
        const makerRest = makerRemaining - take
        fills.push({
          makerId: maker.id,
          makerUserId: maker.userId,
          takerId: order.id,
          takerUserId: userId,
          price,
          amount: take,
          quote,
          makerRemaining: makerRest,
        })
        remaining -= take
        quoteTotal += quote
        if (budget !== undefined) budget -= quote
        if (apply) {
          touched = true
          maker.remaining = makerRest
          level.amount -= take
          if (makerRest === 0n) {
            maker.live = false
            level.count -= 1
            this.byId.delete(maker.id)
          }
        }
        if (remaining === 0n || take < makerRemaining) {
          stopped = true
          break
        }
      }
      if (touched) side.settle(level)
    }
    const canRest = !order.immediateOrCancel && !selfTrade && limit !== null
    return {
      fills,
      filled: remaining === order.amount ? 0n : order.amount - remaining,
      quote: quoteTotal,
      rested: canRest ? remaining : 0n,
      cancelled: canRest ? 0n : remaining,
      selfTrade,
    }
  }
}

/** Placeholder of a resting order's level until its side adds it. */
const NO_LEVEL: Level = { price: 0n, queue: [], head: 0, amount: 0n, count: 0 }

function publicOrder(order: Resting): BookOrder {
  return { id: order.id, userId: order.userId, side: order.side, price: order.price, remaining: order.remaining }
}
