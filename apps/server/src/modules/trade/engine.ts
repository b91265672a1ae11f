// The in-memory matching engine of one quick-trade market ({product}/USDT, docs/trade.md#matching-enginets): limit
// orders with price-time priority, partial fills at the resting (maker) order's price, cancel, and self-trade
// prevention that expires the taker. Prices are USDT base units per whole token and amounts base units of the token,
// all bigint; the configuration guarantees tick × lot is a multiple of one whole token, so every fill's USDT
// value is exact.
//
// The engine holds no money: the trade service locks and moves funds through the ledger in the database transaction
// that persists each command, and rebuilds a book with `load` from the pending orders when the database moved on.

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
}

/**
 * Map key of an id or a price: a number while it is exact (BigInt keys make a Map about four times slower), else its
 * decimal text.
 */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
const keyOf = (value: bigint): number | string => (value <= MAX_SAFE ? Number(value) : value.toString())

interface Level {
  price: bigint
  /** Time order; entries before `head` are all done, later ones may be done too (cancelled). */
  queue: Resting[]
  head: number
  amount: bigint
  count: number
}

/**
 * One side of the book. Prices are kept sorted with the best price LAST, so taking from the best level and removing an
 * emptied one are O(1) at the end of the array; a new price is placed by binary search.
 */
class BookSide {
  readonly prices: bigint[] = []
  readonly levels = new Map<number | string, Level>()

  /** bids: better = higher; asks: better = lower. */
  constructor(private readonly better: (a: bigint, b: bigint) => boolean) {}

  add(order: Resting) {
    let level = this.levels.get(keyOf(order.price))
    if (!level) {
      level = { price: order.price, queue: [], head: 0, amount: 0n, count: 0 }
      this.levels.set(keyOf(order.price), level)
      // First index whose price is better than the new one: worse prices stay before it.
      let lo = 0
      let hi = this.prices.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (this.better(this.prices[mid] as bigint, order.price)) hi = mid
        else lo = mid + 1
      }
      this.prices.splice(lo, 0, order.price)
    }
    level.queue.push(order)
    level.amount += order.remaining
    level.count += 1
  }

  /** Takes `amount` from a live order of this side (a fill or a cancel); drops the level when it empties. */
  reduce(order: Resting, amount: bigint) {
    const level = this.levels.get(keyOf(order.price)) as Level
    order.remaining -= amount
    level.amount -= amount
    if (order.remaining === 0n || !order.live) {
      order.live = false
      level.count -= 1
    }
    if (level.count === 0) return this.drop(level)
    while ((level.queue[level.head] as Resting).live === false) level.head += 1
    if (level.head > 64 && level.head * 2 > level.queue.length) {
      level.queue.splice(0, level.head)
      level.head = 0
    }
  }

  private drop(level: Level) {
    this.levels.delete(keyOf(level.price))
    const last = this.prices.length - 1
    if (this.prices[last] === level.price) this.prices.pop()
    else this.prices.splice(this.indexOf(level.price), 1)
  }

  private indexOf(price: bigint): number {
    let lo = 0
    let hi = this.prices.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const at = this.prices[mid] as bigint
      if (at === price) return mid
      if (this.better(at, price)) hi = mid - 1
      else lo = mid + 1
    }
    throw new Error(`engine: no level at ${price}`)
  }

  best(): bigint | null {
    return this.prices.length === 0 ? null : (this.prices[this.prices.length - 1] as bigint)
  }

  depth(levels: number): DepthLevel[] {
    const out: DepthLevel[] = []
    for (let i = this.prices.length - 1; i >= 0 && out.length < levels; i--) {
      const level = this.levels.get(keyOf(this.prices[i] as bigint)) as Level
      out.push({ price: level.price, amount: level.amount, orders: level.count })
    }
    return out
  }

  /** Live orders, best price first, time order within a price. */
  *orders(): Generator<Resting> {
    for (let i = this.prices.length - 1; i >= 0; i--) {
      const level = this.levels.get(keyOf(this.prices[i] as bigint)) as Level
      for (let j = level.head; j < level.queue.length; j++) {
        const order = level.queue[j] as Resting
        if (order.live) yield order
      }
    }
  }
}

export class OrderBook {
  private readonly bids = new BookSide((a, b) => a > b)
  private readonly asks = new BookSide((a, b) => a < b)
  private readonly byId = new Map<number | string, Resting>()
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
    if (this.byId.has(keyOf(order.id))) throw new Error(`engine: order ${order.id} is already on the book`)
    const result = this.match(order)
    const side = order.side === 'buy' ? this.asks : this.bids
    for (const fill of result.fills) {
      side.reduce(this.byId.get(keyOf(fill.makerId)) as Resting, fill.amount)
      if (fill.makerRemaining === 0n) this.byId.delete(keyOf(fill.makerId))
    }
    if (result.rested > 0n) {
      this.rest({
        id: order.id,
        userId: order.userId,
        side: order.side,
        price: order.price as bigint,
        remaining: result.rested,
      })
    }
    return result
  }

  /** What `place` would do, leaving the book as it is. */
  simulate(order: Incoming): PlaceResult {
    return this.match(order)
  }

  /** Removes a resting order; returns it with the rest it had, or undefined when it is not on the book. */
  cancel(id: bigint): BookOrder | undefined {
    const key = keyOf(id)
    const order = this.byId.get(key)
    if (!order) return undefined
    this.byId.delete(key)
    const cancelled = publicOrder(order)
    order.live = false
    ;(order.side === 'buy' ? this.bids : this.asks).reduce(order, cancelled.remaining)
    return cancelled
  }

  get(id: bigint): BookOrder | undefined {
    const order = this.byId.get(keyOf(id))
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
      if (this.byId.has(keyOf(order.id))) throw new Error(`engine: order ${order.id} is already on the book`)
      if (order.remaining <= 0n) throw new Error(`engine: order ${order.id} has nothing to rest`)
      this.rest(order)
    }
  }

  private rest(order: BookOrder) {
    const resting: Resting = {
      id: order.id,
      userId: order.userId,
      side: order.side,
      price: order.price,
      remaining: order.remaining,
      live: true,
    }
    this.byId.set(keyOf(order.id), resting)
    ;(order.side === 'buy' ? this.bids : this.asks).add(resting)
  }

  /** The fills the order would make, best level first, without changing anything. */
  private match(order: Incoming): PlaceResult {
    if (order.amount <= 0n) throw new Error('engine: amount must be positive')
    const buy = order.side === 'buy'
    const other = buy ? this.asks : this.bids
    const fills: Fill[] = []
    let remaining = order.amount
    let budget = order.quoteBudget
    let quoteTotal = 0n
    let selfTrade = false
    let stopped = false
    for (let i = other.prices.length - 1; i >= 0 && !stopped; i--) {
      const price = other.prices[i] as bigint
      if (order.price !== null && (buy ? price > order.price : price < order.price)) break
      const level = other.levels.get(keyOf(price)) as Level
      for (let j = level.head; j < level.queue.length; j++) {
        const maker = level.queue[j] as Resting
        if (!maker.live) continue
        if (maker.userId === order.userId) {
          selfTrade = true
          stopped = true
          break
        }
        // biome-ignore lint/complexity/useMathMinMax: Math.min does not take bigint
        let take = remaining < maker.remaining ? remaining : maker.remaining
        if (budget !== undefined) {
          const affordable = ((budget * this.baseUnit) / price / this.lot) * this.lot
          if (affordable < take) take = affordable
          if (take === 0n) {
            stopped = true
            break
          }
        }
        const quote = (price * take) / this.baseUnit
        fills.push({
          makerId: maker.id,
          makerUserId: maker.userId,
          takerId: order.id,
          takerUserId: order.userId,
          price,
          amount: take,
          quote,
          makerRemaining: maker.remaining - take,
        })
        remaining -= take
        quoteTotal += quote
        if (budget !== undefined) budget -= quote
        if (remaining === 0n || take < maker.remaining) {
          stopped = true
          break
        }
      }
    }
    const canRest = !order.immediateOrCancel && !selfTrade && order.price !== null
    return {
      fills,
      filled: order.amount - remaining,
      quote: quoteTotal,
      rested: canRest ? remaining : 0n,
      cancelled: canRest ? 0n : remaining,
      selfTrade,
    }
  }
}

function publicOrder(order: Resting): BookOrder {
  return { id: order.id, userId: order.userId, side: order.side, price: order.price, remaining: order.remaining }
}
