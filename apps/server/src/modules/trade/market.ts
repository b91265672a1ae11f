// One quick-trade market in this process (docs/trade.md "Concurrency"): the in-memory order book, the queue that
// serializes every command on it, and the database transaction that persists each batch of commands together with its
// ledger transfers. The database is the truth: each batch locks the market row and compares its `seq` with the book's,
// and rebuilds the book from the pending orders when another process (or a failed batch) moved it on.
import type { TradeOrderStatus } from '@solpledge/contract'
import { formatAmount } from '@solpledge/contract'
import { type Selectable, sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB, TradeOrdersTable } from '../../db/schema.ts'
import { AppError, refuse } from '../../lib/app-error.ts'
import { requireAsset } from '../assets/service.ts'
import { getBusinessConfig } from '../config/service.ts'
import { type AccountSpec, accountIds, accountKey, transferMany } from '../ledger/bulk.ts'
import { type Fill, type Incoming, OrderBook, type PlaceResult, type Side } from './engine.ts'
import {
  aboveMaximum,
  belowMinimum,
  checkLimitOrder,
  feeOf,
  type MarketRules,
  marketRules,
  orderSn,
  QUOTE,
  quoteOf,
} from './rules.ts'

/** An order as the market keeps it: the row of trade_orders in bigint. */
export interface OrderState {
  id: bigint
  orderSn: string
  userId: bigint
  side: Side
  kind: 'limit' | 'swap'
  price: bigint | null
  amount: bigint
  filled: bigint
  quote: bigint
  fee: bigint
  received: bigint
  locked: bigint
  status: TradeOrderStatus
  clientOrderId: string | null
  createdAt: Date
  updatedAt: Date
}

export function orderState(row: Selectable<TradeOrdersTable>): OrderState {
  return {
    id: BigInt(row.id),
    orderSn: row.order_sn,
    userId: BigInt(row.user_id),
    side: row.side,
    kind: row.kind,
    price: row.price === null ? null : BigInt(row.price),
    amount: BigInt(row.amount),
    filled: BigInt(row.filled),
    quote: BigInt(row.quote),
    fee: BigInt(row.fee),
    received: BigInt(row.received),
    locked: BigInt(row.locked),
    status: row.status,
    clientOrderId: row.client_order_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export interface LimitInput {
  userId: bigint
  side: Side
  price: bigint
  amount: bigint
  clientOrderId?: string | undefined
}

/** A swap: `amount` of the asset given ({product} for a sell, USDT for a buy). */
export interface SwapInput {
  side: Side
  amount: bigint
}

export interface SwapOrderInput extends SwapInput {
  userId: bigint
  /** Refused with nothing changed when the swap would give less, net of the fee. */
  minReceived: bigint
  clientOrderId?: string | undefined
}

export interface SwapResult {
  order: OrderState
  /** Spent: {product} for a sell, USDT for a buy. */
  amountIn: bigint
  /** Received net of the fee: USDT for a sell, {product} for a buy. */
  amountOut: bigint
}

/** What a swap would do at the book now. */
export interface SwapPlan {
  amountIn: bigint
  amountOut: bigint
  fee: bigint
  filled: bigint
  quote: bigint
  bestPrice: bigint | null
  /** The book can take the whole amount (a sell's rounded to the lot; a buy's but for less than one more lot). */
  enough: boolean
}

export const swapResult = (order: OrderState): SwapResult => ({
  order,
  amountIn: order.side === 'sell' ? order.filled : order.quote,
  amountOut: order.received,
})

/** The book and the orders resting on it, as of the market row's `seq`. */
interface BookState {
  book: OrderBook
  resting: Map<bigint, OrderState>
  seq: bigint
  lot: bigint
}

interface PendingTransfer {
  debit: AccountSpec
  credit: AccountSpec
  asset: string
  amount: bigint
  type: string
  key: string
  reference: string
}

interface FillRecord {
  maker: OrderState
  taker: OrderState
  price: bigint
  amount: bigint
  quote: bigint
  makerFee: bigint
  takerFee: bigint
}

const available = (userId: bigint, asset: string): AccountSpec => ({ userId: String(userId), asset, kind: 'available' })
const locked = (userId: bigint, asset: string): AccountSpec => ({ userId: String(userId), asset, kind: 'locked' })
const fees = (asset: string): AccountSpec => ({ userId: null, asset, kind: 'fees' })

/** A transfer refused when the batch was written: a balance changed under it (another module's transaction). */
class BalanceChanged extends Error {}

/**
 * The changes of one batch of commands, applied to the book at once and collected for the database. Every command
 * checks everything it can refuse before it touches the book, so a refused command changes nothing.
 */
class Batch {
  readonly created = new Set<OrderState>()
  readonly changed = new Set<OrderState>()
  readonly fills: FillRecord[] = []
  readonly transfers: PendingTransfer[] = []
  lastPrice: bigint | null = null
  private readonly byClientKey = new Map<string, OrderState>()

  constructor(
    readonly state: BookState,
    readonly rules: MarketRules,
    readonly time: Date,
    private readonly ids: bigint[],
    clientOrders: OrderState[],
    /** Available balances of the users placing orders, by account key; moved as the batch moves them. */
    private readonly balances: Map<string, bigint>,
  ) {
    for (const order of clientOrders) this.byClientKey.set(`${order.userId}/${order.clientOrderId}`, order)
  }

  get book() {
    return this.state.book
  }

  /** The order a retry with the same client key refers to. */
  prior(userId: bigint, clientOrderId: string | undefined): OrderState | undefined {
    return clientOrderId === undefined ? undefined : this.byClientKey.get(`${userId}/${clientOrderId}`)
  }

  private requireBalance(userId: bigint, asset: string, amount: bigint) {
    if ((this.balances.get(accountKey(available(userId, asset))) ?? 0n) < amount)
      throw refuse('common.insufficientBalance')
  }

  private move(debit: AccountSpec, credit: AccountSpec, asset: string, amount: bigint, type: string, key: string) {
    if (amount <= 0n) return
    for (const [account, sign] of [
      [debit, -1n],
      [credit, 1n],
    ] as const) {
      const k = accountKey(account)
      const balance = this.balances.get(k)
      if (balance !== undefined) this.balances.set(k, balance + sign * amount)
    }
    this.transfers.push({ debit, credit, asset, amount, type, key, reference: key.split(':').slice(0, 3).join(':') })
  }

  private touch(order: OrderState) {
    order.updatedAt = this.time
    if (!this.created.has(order)) this.changed.add(order)
  }

  private create(fields: Omit<OrderState, 'id' | 'orderSn' | 'createdAt' | 'updatedAt'>): OrderState {
    const id = this.ids.shift()
    if (id === undefined) throw new Error('trade: a batch ran out of order ids')
    const order: OrderState = {
      ...fields,
      id,
      orderSn: orderSn(id, this.time),
      createdAt: this.time,
      updatedAt: this.time,
    }
    this.created.add(order)
    if (order.clientOrderId !== null) this.byClientKey.set(`${order.userId}/${order.clientOrderId}`, order)
    return order
  }

  placeLimit(input: LimitInput): OrderState {
    const prior = this.prior(input.userId, input.clientOrderId)
    if (prior) return { ...prior }
    checkLimitOrder(this.rules, input.price, input.amount)
    const given = input.side === 'sell' ? this.rules.symbol : QUOTE
    const cost = input.side === 'sell' ? input.amount : quoteOf(input.price, input.amount, this.rules)
    this.requireBalance(input.userId, given, cost)
    const order = this.create({
      userId: input.userId,
      side: input.side,
      kind: 'limit',
      price: input.price,
      amount: input.amount,
      filled: 0n,
      quote: 0n,
      fee: 0n,
      received: 0n,
      locked: cost,
      status: 'pending',
      clientOrderId: input.clientOrderId ?? null,
    })
    this.move(
      available(order.userId, given),
      locked(order.userId, given),
      given,
      cost,
      'trade_lock',
      `trade:order:${order.id}:lock`,
    )
    const result = this.book.place({
      id: order.id,
      userId: order.userId,
      side: order.side,
      price: input.price,
      amount: input.amount,
      immediateOrCancel: false,
    })
    for (const fill of result.fills) this.settle(fill, order)
    if (result.rested > 0n) this.state.resting.set(order.id, order)
    else this.close(order, order.filled === order.amount ? 'completed' : 'cancelled')
    return { ...order }
  }

  cancel(userId: bigint, orderId: bigint): OrderState {
    const order = this.state.resting.get(orderId)
    if (!order || order.userId !== userId) throw refuse('trade.cancelFailed')
    this.book.cancel(orderId)
    this.close(order, 'cancelled')
    return { ...order }
  }

  /** The order a swap sends to the book, after checking its amount; id 0 until it is placed. */
  private swapOrder(input: SwapInput, userId: bigint): Incoming {
    const { rules } = this
    if (input.side === 'sell') {
      // What the lot size cannot take stays with the user.
      const amount = input.amount - (input.amount % rules.lot)
      if (amount === 0n) throw belowMinimum(rules, rules.lot)
      if (amount > rules.max) throw aboveMaximum(rules)
      return { id: 0n, userId, side: 'sell', price: null, amount, immediateOrCancel: true }
    }
    const most = rules.max - (rules.max % rules.lot)
    return {
      id: 0n,
      userId,
      side: 'buy',
      price: null,
      amount: most,
      quoteBudget: input.amount,
      immediateOrCancel: true,
    }
  }

  /** What a swap would do now (nothing changes). */
  plan(input: SwapInput, userId = 0n): SwapPlan {
    const order = this.swapOrder(input, userId)
    const result = this.book.simulate(order)
    const sell = input.side === 'sell'
    const fee = feeOf(sell ? result.quote : result.filled, this.rules.feeBps)
    return {
      amountIn: sell ? result.filled : result.quote,
      amountOut: (sell ? result.quote : result.filled) - fee,
      fee,
      filled: result.filled,
      quote: result.quote,
      bestPrice: sell ? this.book.bestBid() : this.book.bestAsk(),
      enough: sell ? result.filled === order.amount : this.budgetSpent(order, result),
    }
  }

  /**
   * Whether a swap buy stopped because its budget ran out rather than the book: what is left of the budget cannot pay
   * for one more lot at the price the book would give it next.
   */
  private budgetSpent(order: Incoming, result: PlaceResult): boolean {
    const left = (order.quoteBudget as bigint) - result.quote
    if (left === 0n) return true
    const more = this.book.simulate({ ...order, quoteBudget: undefined, amount: result.filled + this.rules.lot })
    if (more.filled > result.filled) return left < more.quote - result.quote
    const last = result.fills.at(-1)?.price
    return last !== undefined && left < quoteOf(last, this.rules.lot, this.rules)
  }

  swap(input: SwapOrderInput): SwapResult {
    const prior = this.prior(input.userId, input.clientOrderId)
    if (prior) return swapResult({ ...prior })
    const incoming = this.swapOrder(input, input.userId)
    const given = input.side === 'sell' ? this.rules.symbol : QUOTE
    this.requireBalance(input.userId, given, input.amount)
    const plan = this.plan(input, input.userId)
    if (plan.filled === 0n) {
      // A budget below one lot at the best ask, or nothing the user can take (an empty side, their own orders).
      const lot = plan.bestPrice === null ? null : quoteOf(plan.bestPrice, this.rules.lot, this.rules)
      if (input.side === 'buy' && lot !== null && input.amount < lot)
        throw refuse('trade.belowMinimum', { min: formatAmount(lot, this.rules.quoteDecimals), unit: QUOTE })
      throw refuse('trade.noLiquidity')
    }
    if (plan.amountOut < input.minReceived) {
      const decimals = input.side === 'sell' ? this.rules.quoteDecimals : this.rules.baseDecimals
      throw refuse('trade.slippage', {
        min: formatAmount(input.minReceived, decimals),
        unit: input.side === 'sell' ? QUOTE : this.rules.symbol,
      })
    }
    const order = this.create({
      userId: input.userId,
      side: input.side,
      kind: 'swap',
      price: null,
      amount: plan.filled,
      filled: 0n,
      quote: 0n,
      fee: 0n,
      received: 0n,
      locked: 0n,
      status: 'completed',
      clientOrderId: input.clientOrderId ?? null,
    })
    const result = this.book.place({ ...incoming, id: order.id })
    for (const fill of result.fills) this.settle(fill, order)
    return swapResult({ ...order })
  }

  /** Ends an order: the funds it still holds return to the user's available balance. */
  private close(order: OrderState, status: 'completed' | 'cancelled') {
    const given = order.side === 'sell' ? this.rules.symbol : QUOTE
    this.move(
      locked(order.userId, given),
      available(order.userId, given),
      given,
      order.locked,
      'trade_unlock',
      `trade:order:${order.id}:release`,
    )
    order.locked = 0n
    order.status = status
    this.state.resting.delete(order.id)
    this.touch(order)
  }

  /**
   * One fill's money: the seller's {product} to the buyer and the buyer's USDT to the seller, each net of the fee of
   * the side receiving it (to the system account 'fees'), from the locked funds of a limit order or the available
   * balance of a swap; a buy limit order above the fill price gets the difference back.
   */
  private settle(fill: Fill, taker: OrderState) {
    const maker = this.state.resting.get(fill.makerId)
    if (!maker) throw new Error(`trade: maker order ${fill.makerId} is not resting`)
    const { symbol, feeBps } = this.rules
    const [buyer, seller] = taker.side === 'buy' ? [taker, maker] : [maker, taker]
    const buyerFee = feeOf(fill.amount, feeBps)
    const sellerFee = feeOf(fill.quote, feeBps)
    const key = `trade:fill:${fill.makerId}-${fill.takerId}`
    const from = (order: OrderState, asset: string) =>
      order.kind === 'limit' ? locked(order.userId, asset) : available(order.userId, asset)
    const base = from(seller, symbol)
    const quote = from(buyer, QUOTE)
    this.move(base, available(buyer.userId, symbol), symbol, fill.amount - buyerFee, 'trade', `${key}:base`)
    this.move(base, fees(symbol), symbol, buyerFee, 'trade_fee', `${key}:base_fee`)
    this.move(quote, available(seller.userId, QUOTE), QUOTE, fill.quote - sellerFee, 'trade', `${key}:quote`)
    this.move(quote, fees(QUOTE), QUOTE, sellerFee, 'trade_fee', `${key}:quote_fee`)
    let reserved = fill.quote
    if (buyer.kind === 'limit') {
      reserved = quoteOf(buyer.price as bigint, fill.amount, this.rules)
      this.move(quote, available(buyer.userId, QUOTE), QUOTE, reserved - fill.quote, 'trade_unlock', `${key}:refund`)
      buyer.locked -= reserved
    }
    if (seller.kind === 'limit') seller.locked -= fill.amount
    for (const [order, fee, received] of [
      [seller, sellerFee, fill.quote],
      [buyer, buyerFee, fill.amount],
    ] as const) {
      order.filled += fill.amount
      order.quote += fill.quote
      order.fee += fee
      order.received += received - fee
      this.touch(order)
    }
    this.fills.push({
      maker,
      taker,
      price: fill.price,
      amount: fill.amount,
      quote: fill.quote,
      makerFee: maker === buyer ? buyerFee : sellerFee,
      takerFee: taker === buyer ? buyerFee : sellerFee,
    })
    this.lastPrice = fill.price
    if (fill.makerRemaining === 0n) this.close(maker, 'completed')
  }

  /** Writes the batch: orders, fills, ledger transfers and the market row. False when it changed nothing. */
  async flush(trx: Transaction<DB>, symbol: string): Promise<boolean> {
    if (this.created.size === 0 && this.changed.size === 0) return false
    const time = this.time.toISOString()
    const list = <T>(values: T[]) => sql.val(values)
    const big = (values: (bigint | null)[]) => list(values.map((v) => (v === null ? null : v.toString())))
    if (this.created.size > 0) {
      const o = [...this.created]
      await sql`
        insert into trade_orders (id, order_sn, symbol, user_id, side, kind, price, amount, filled, quote, fee, received,
          locked, status, client_order_id, created_at, updated_at)
        select id, order_sn, ${symbol}, user_id, side, kind, price, amount, filled, quote, fee, received, locked, status,
          client_order_id, ${time}::timestamptz, ${time}::timestamptz
        from unnest(${big(o.map((x) => x.id))}::bigint[], ${list(o.map((x) => x.orderSn))}::text[],
          ${big(o.map((x) => x.userId))}::bigint[], ${list(o.map((x) => x.side))}::text[],
          ${list(o.map((x) => x.kind))}::text[], ${big(o.map((x) => x.price))}::numeric[],
          ${big(o.map((x) => x.amount))}::numeric[], ${big(o.map((x) => x.filled))}::numeric[],
          ${big(o.map((x) => x.quote))}::numeric[], ${big(o.map((x) => x.fee))}::numeric[],
          ${big(o.map((x) => x.received))}::numeric[], ${big(o.map((x) => x.locked))}::numeric[],
          ${list(o.map((x) => x.status))}::text[], ${list(o.map((x) => x.clientOrderId))}::text[])
          as o(id, order_sn, user_id, side, kind, price, amount, filled, quote, fee, received, locked, status,
            client_order_id)`.execute(trx)
    }
    if (this.changed.size > 0) {
      const o = [...this.changed]
      const result = await sql`
        update trade_orders t set filled = o.filled, quote = o.quote, fee = o.fee, received = o.received,
          locked = o.locked, status = o.status, updated_at = ${time}::timestamptz
        from unnest(${big(o.map((x) => x.id))}::bigint[], ${big(o.map((x) => x.filled))}::numeric[],
          ${big(o.map((x) => x.quote))}::numeric[], ${big(o.map((x) => x.fee))}::numeric[],
          ${big(o.map((x) => x.received))}::numeric[], ${big(o.map((x) => x.locked))}::numeric[],
          ${list(o.map((x) => x.status))}::text[]) as o(id, filled, quote, fee, received, locked, status)
        where t.id = o.id and t.status = 'pending'`.execute(trx)
      if (Number(result.numAffectedRows) !== o.length) throw new Error('trade: an order changed was not pending')
    }
    if (this.fills.length > 0) {
      const f = this.fills
      await sql`
        insert into trade_fills (symbol, maker_order_id, taker_order_id, maker_user_id, taker_user_id, taker_side, price,
          amount, quote, maker_fee, taker_fee, created_at)
        select ${symbol}, maker_order_id, taker_order_id, maker_user_id, taker_user_id, taker_side, price, amount, quote,
          maker_fee, taker_fee, ${time}::timestamptz
        from unnest(${big(f.map((x) => x.maker.id))}::bigint[], ${big(f.map((x) => x.taker.id))}::bigint[],
          ${big(f.map((x) => x.maker.userId))}::bigint[], ${big(f.map((x) => x.taker.userId))}::bigint[],
          ${list(f.map((x) => x.taker.side))}::text[], ${big(f.map((x) => x.price))}::numeric[],
          ${big(f.map((x) => x.amount))}::numeric[], ${big(f.map((x) => x.quote))}::numeric[],
          ${big(f.map((x) => x.makerFee))}::numeric[], ${big(f.map((x) => x.takerFee))}::numeric[])
          with ordinality as f(maker_order_id, taker_order_id, maker_user_id, taker_user_id, taker_side, price, amount,
            quote, maker_fee, taker_fee, n)
        order by n`.execute(trx)
    }
    const accounts = await accountIds(
      trx,
      this.transfers.flatMap((t) => [t.debit, t.credit]),
    )
    const id = (spec: AccountSpec) => accounts.get(accountKey(spec)) as string
    try {
      await transferMany(
        trx,
        this.transfers.map((t) => ({ ...t, debit: id(t.debit), credit: id(t.credit) })),
      )
    } catch (error) {
      if (error instanceof AppError && error.key === 'common.insufficientBalance') throw new BalanceChanged()
      throw error
    }
    await trx
      .updateTable('trade_markets')
      .set({
        seq: sql`seq + 1`,
        updated_at: this.time,
        ...(this.lastPrice === null ? {} : { last_price: this.lastPrice.toString() }),
      })
      .where('symbol', '=', symbol)
      .execute()
    return true
  }
}

/** A command waiting in the market's queue. */
interface Job {
  /** False for reads: a batch of reads only needs a current book, not a transaction. */
  writes: boolean
  /** How many order ids it may create. */
  ids: number
  /** The available balance it spends from, and its client key: both read at the start of the batch. */
  payer?: { userId: bigint; asset: string; clientOrderId?: string | undefined }
  run: (batch: Batch) => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/** How many commands one transaction takes at most. */
const MAX_BATCH = 256
/** How many times a batch is tried when the database refused it for a reason that may pass (deadlock, …). */
const ATTEMPTS = 5

const retryable = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code
  return error instanceof BalanceChanged || code === '40P01' || code === '40001'
}

/**
 * The quick-trade market of `symbol` against USDT in this process. Commands wait in one queue; whatever is waiting when
 * the previous batch ends runs as the next batch, in order, in one database transaction (group commit), so the book
 * changes in exactly the order the database records. A command refused by the rules is answered with its refusal and
 * changes nothing; the others of its batch go ahead.
 */
export class TradeMarket {
  private state: BookState | null = null
  private readonly queue: Job[] = []
  private running = false
  private asset: { symbol: string; baseDecimals: number; quoteDecimals: number } | undefined

  constructor(
    readonly db: Database,
    readonly symbol: string,
  ) {}

  placeLimit(input: LimitInput): Promise<OrderState> {
    const asset = input.side === 'sell' ? this.symbol : QUOTE
    return this.submit({
      writes: true,
      ids: 1,
      payer: { userId: input.userId, asset, clientOrderId: input.clientOrderId },
      run: (batch) => batch.placeLimit(input),
    })
  }

  cancel(userId: bigint, orderId: bigint): Promise<OrderState> {
    return this.submit({ writes: true, ids: 0, run: (batch) => batch.cancel(userId, orderId) })
  }

  swap(input: SwapOrderInput): Promise<SwapResult> {
    const asset = input.side === 'sell' ? this.symbol : QUOTE
    return this.submit({
      writes: true,
      ids: 1,
      payer: { userId: input.userId, asset, clientOrderId: input.clientOrderId },
      run: (batch) => batch.swap(input),
    })
  }

  /** Reads the current book (as the database has it) with the market's rules. */
  read<T>(fn: (view: { book: OrderBook; rules: MarketRules; plan: (input: SwapInput) => SwapPlan }) => T): Promise<T> {
    return this.submit({
      writes: false,
      ids: 0,
      run: (batch) => fn({ book: batch.book, rules: batch.rules, plan: (input) => batch.plan(input) }),
    })
  }

  private submit<T>(job: Omit<Job, 'resolve' | 'reject'>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ ...job, resolve: resolve as (value: unknown) => void, reject })
      if (!this.running) void this.drain()
    })
  }

  private async drain() {
    this.running = true
    while (this.queue.length > 0) await this.runBatch(this.queue.splice(0, MAX_BATCH))
    this.running = false
  }

  /** Runs the jobs as one batch and answers each of them; never throws. */
  private async runBatch(jobs: Job[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        const outcomes = jobs.some((job) => job.writes) ? await this.write(jobs) : await this.readOnly(jobs)
        jobs.forEach((job, i) => {
          const outcome = outcomes[i] as { value?: unknown; error?: unknown }
          if ('error' in outcome) job.reject(outcome.error)
          else job.resolve(outcome.value)
        })
        return
      } catch (error) {
        // The book may hold changes the database does not: rebuild it before the next command.
        this.state = null
        if (attempt < ATTEMPTS && retryable(error)) continue
        for (const job of jobs)
          job.reject(error instanceof BalanceChanged ? refuse('common.insufficientBalance') : error)
        return
      }
    }
  }

  private static apply(jobs: Job[], batch: Batch) {
    return jobs.map((job) => {
      try {
        return { value: job.run(batch) }
      } catch (error) {
        if (error instanceof AppError) return { error }
        throw error
      }
    })
  }

  /** Reads need no transaction while the book is as current as the market row says. */
  private async readOnly(jobs: Job[]) {
    const [row, rules] = await Promise.all([
      this.db.selectFrom('trade_markets').select('seq').where('symbol', '=', this.symbol).executeTakeFirst(),
      this.rules(this.db),
    ])
    const state = this.state
    if (!state || !row || BigInt(row.seq) !== state.seq || state.lot !== rules.lot) return this.write(jobs)
    return TradeMarket.apply(jobs, new Batch(state, rules, new Date(), [], [], new Map()))
  }

  private async write(jobs: Job[]) {
    let next: BookState | undefined
    const outcomes = await this.db.transaction().execute(async (trx) => {
      const batch = await this.open(trx, jobs)
      const outcomes = TradeMarket.apply(jobs, batch)
      next = batch.state
      if (await batch.flush(trx, this.symbol)) next.seq += 1n
      return outcomes
    })
    this.state = next ?? null
    return outcomes
  }

  /** The market's rules from the configuration in force (read per batch: a change applies to the next one). */
  private async rules(db: Database): Promise<MarketRules> {
    if (!this.asset) {
      const [base, quote] = await Promise.all([requireAsset(db, this.symbol), requireAsset(db, QUOTE)])
      this.asset = { symbol: base.symbol, baseDecimals: base.decimals, quoteDecimals: quote.decimals }
    }
    return marketRules(await getBusinessConfig(db), this.asset)
  }

  /**
   * Starts a batch: locks the market row (batches of all processes run one at a time), brings the book up to date,
   * and reads what the commands need: order ids, the time, the orders their client keys name, the payers' balances.
   */
  private async open(trx: Transaction<DB>, jobs: Job[]): Promise<Batch> {
    const lock = () =>
      trx
        .selectFrom('trade_markets')
        .select(['seq', 'updated_at'])
        .where('symbol', '=', this.symbol)
        .forUpdate()
        .executeTakeFirst()
    let market = await lock()
    if (!market) {
      await trx
        .insertInto('trade_markets')
        .values({ symbol: this.symbol })
        .onConflict((oc) => oc.doNothing())
        .execute()
      market = await lock()
      if (!market) throw new Error(`trade: market ${this.symbol} could not be created`)
    }
    const rules = await this.rules(trx)
    const seq = BigInt(market.seq)
    let state = this.state
    // Until the batch commits, `this.state` is unknown: a failure leaves it null so the next batch rebuilds.
    this.state = null
    if (!state || state.seq !== seq || state.lot !== rules.lot) state = await this.rebuild(trx, rules, seq)

    const count = jobs.reduce((n, job) => n + job.ids, 0)
    const { rows } = await sql<{ id: string | null; now: Date }>`
      select case when n > 0 then nextval('trade_orders_id_seq')::text end as id, clock_timestamp() as now
      from generate_series(0, ${count}) as n order by n`.execute(trx)
    const ids = rows.flatMap((row) => (row.id === null ? [] : [BigInt(row.id)]))
    const now = rows[0]?.now ?? new Date()
    // A batch's time never goes back, whatever the clocks of the servers: the fills stay in time order.
    const time = new Date(Math.max(now.getTime(), market.updated_at.getTime()))

    const payers = jobs.flatMap((job) => (job.payer ? [job.payer] : []))
    const keyed = payers.filter((p) => p.clientOrderId !== undefined)
    const clientOrders =
      keyed.length === 0
        ? []
        : await trx
            .selectFrom('trade_orders')
            .selectAll()
            .where(
              'user_id',
              'in',
              keyed.map((p) => String(p.userId)),
            )
            .where(
              'client_order_id',
              'in',
              keyed.map((p) => p.clientOrderId as string),
            )
            .execute()
    const balances = new Map<string, bigint>()
    if (payers.length > 0) {
      const held = await trx
        .selectFrom('ledger_accounts')
        .select(['user_id', 'asset', 'balance'])
        .where('kind', '=', 'available')
        .where(
          'user_id',
          'in',
          payers.map((p) => String(p.userId)),
        )
        .where('asset', 'in', [this.symbol, QUOTE])
        .execute()
      for (const p of payers) balances.set(accountKey(available(p.userId, p.asset)), 0n)
      for (const row of held)
        balances.set(accountKey({ userId: row.user_id, asset: row.asset, kind: 'available' }), BigInt(row.balance))
    }
    return new Batch(state, rules, time, ids, clientOrders.map(orderState), balances)
  }

  /** The book as the database has it: the pending limit orders in id (time) order. */
  private async rebuild(trx: Transaction<DB>, rules: MarketRules, seq: bigint): Promise<BookState> {
    const rows = await trx
      .selectFrom('trade_orders')
      .selectAll()
      .where('symbol', '=', this.symbol)
      .where('status', '=', 'pending')
      .orderBy('id')
      .execute()
    const book = new OrderBook({ baseUnit: rules.baseUnit, lot: rules.lot })
    const resting = new Map<bigint, OrderState>()
    for (const row of rows) resting.set(BigInt(row.id), orderState(row))
    book.load(
      [...resting.values()].map((o) => ({
        id: o.id,
        userId: o.userId,
        side: o.side,
        price: o.price as bigint,
        remaining: o.amount - o.filled,
      })),
    )
    return { book, resting, seq, lot: rules.lot }
  }
}
