// One batch of quick-trade commands (docs/trade.md): each command checked, applied to the in-memory book and turned
// into the rows and ledger transfers it makes, then all of them written in a fixed number of statements.
import { amountParam, type LedgerType, type TradeOrderStatus } from '@solpledge/contract'
import { type Selectable, sql, type Transaction } from 'kysely'
import type { DB, TradeOrdersTable } from '../../db/schema.ts'
import { AppError, refuse } from '../../lib/app-error.ts'
import { QUOTE } from '../config/index.ts'
import { type AccountSpec, accountIds, accountKey, lockAccounts, transferMany } from '../ledger/index.ts'
import type { Fill, Incoming, OrderBook, PlaceResult, Side } from './engine.ts'
import { aboveMaximum, belowMinimum, checkLimitOrder, feeOf, type MarketRules, orderSn, quoteOf } from './rules.ts'

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

/** An order row as read (`trade_open` returns its client orders without the `seq` they were last written at). */
export type OrderRow = Omit<Selectable<TradeOrdersTable>, 'seq'>

export function orderState(row: OrderRow): OrderState {
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

const swapResult = (order: OrderState): SwapResult => ({
  order,
  amountIn: order.side === 'sell' ? order.filled : order.quote,
  amountOut: order.received,
})

/** The book and the orders resting on it, as of the market row's `seq`. */
export interface BookState {
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
  type: LedgerType
  key: string
  reference: string
}

export interface FillRecord {
  maker: OrderState
  taker: OrderState
  price: bigint
  amount: bigint
  quote: bigint
  makerFee: bigint
  takerFee: bigint
}

export const available = (userId: bigint, asset: string): AccountSpec => ({
  userId: String(userId),
  asset,
  kind: 'available',
})
const locked = (userId: bigint, asset: string): AccountSpec => ({ userId: String(userId), asset, kind: 'locked' })
const fees = (asset: string): AccountSpec => ({ userId: null, asset, kind: 'fees' })

/** A transfer refused when the batch was written: a balance changed under it (another module's transaction). */
export class BalanceChanged extends Error {}

/**
 * The changes of one batch of commands, applied to the book at once and collected for the database. Every command
 * checks everything it can refuse before it touches the book, so a refused command changes nothing.
 */
export class Batch {
  readonly created = new Set<OrderState>()
  readonly changed = new Set<OrderState>()
  readonly fills: FillRecord[] = []
  readonly transfers: PendingTransfer[] = []
  lastPrice: bigint | null = null
  /**
   * Ledger account ids the batch found or created (by accountKey): the payers' (trade_open) and any other its transfers
   * needed; the market keeps them once the batch has committed.
   */
  readonly accounts = new Map<string, string>()
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
    const prior = clientOrderId === undefined ? undefined : this.byClientKey.get(`${userId}/${clientOrderId}`)
    // As it is now, if it still rests on the book.
    return prior && (this.state.resting.get(prior.id) ?? prior)
  }

  private requireBalance(userId: bigint, asset: string, amount: bigint) {
    if ((this.balances.get(accountKey(available(userId, asset))) ?? 0n) < amount)
      throw refuse('common.insufficientBalance')
  }

  /** A transfer of the batch, keyed `<ref>:<leg>`; the tracked balances follow it. */
  private move(from: AccountSpec, to: AccountSpec, amount: bigint, type: LedgerType, ref: string, leg: string) {
    if (amount <= 0n) return
    for (const [account, change] of [
      [from, -amount],
      [to, amount],
    ] as const) {
      const balance = this.balances.get(accountKey(account))
      if (balance !== undefined) this.balances.set(accountKey(account), balance + change)
    }
    this.transfers.push({
      debit: from,
      credit: to,
      asset: from.asset,
      amount,
      type,
      key: `${ref}:${leg}`,
      reference: ref,
    })
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
      cost,
      'trade_lock',
      `trade:order:${order.id}`,
      'lock',
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
    // A sell spends at most its amount rounded to the lot, a buy its budget.
    this.requireBalance(input.userId, given, input.side === 'sell' ? incoming.amount : input.amount)
    const plan = this.plan(input, input.userId)
    if (plan.filled === 0n) {
      // A budget below one lot at the best ask, or nothing the user can take (an empty side, their own orders).
      const lot = plan.bestPrice === null ? null : quoteOf(plan.bestPrice, this.rules.lot, this.rules)
      if (input.side === 'buy' && lot !== null && input.amount < lot)
        throw refuse('trade.belowMinimum', { min: amountParam(lot, this.rules.quoteDecimals), unit: QUOTE })
      throw refuse('trade.noLiquidity')
    }
    if (plan.amountOut < input.minReceived) {
      const decimals = input.side === 'sell' ? this.rules.quoteDecimals : this.rules.baseDecimals
      throw refuse('trade.slippage', {
        min: amountParam(input.minReceived, decimals),
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
    const ref = `trade:order:${order.id}`
    this.move(locked(order.userId, given), available(order.userId, given), order.locked, 'trade_unlock', ref, 'release')
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
    const ref = `trade:fill:${fill.makerId}-${fill.takerId}`
    const from = (order: OrderState, asset: string) =>
      order.kind === 'limit' ? locked(order.userId, asset) : available(order.userId, asset)
    const base = from(seller, symbol)
    const quote = from(buyer, QUOTE)
    this.move(base, available(buyer.userId, symbol), fill.amount - buyerFee, 'trade', ref, 'base')
    this.move(base, fees(symbol), buyerFee, 'trade_fee', ref, 'base_fee')
    this.move(quote, available(seller.userId, QUOTE), fill.quote - sellerFee, 'trade', ref, 'quote')
    this.move(quote, fees(QUOTE), sellerFee, 'trade_fee', ref, 'quote_fee')
    let reserved = fill.quote
    if (buyer.kind === 'limit') {
      reserved = quoteOf(buyer.price as bigint, fill.amount, this.rules)
      this.move(quote, available(buyer.userId, QUOTE), reserved - fill.quote, 'trade_unlock', ref, 'refund')
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

  /**
   * Writes the batch: the ids of the accounts neither `known` nor `accounts` holds (found or created, into
   * `accounts`, which the caller keeps once the batch has committed), then its orders, fills and the market row in one statement that also
   * locks the transfers' accounts, then its ledger transfers. False when it changed nothing.
   */
  async flush(trx: Transaction<DB>, symbol: string, known: ReadonlyMap<string, string>): Promise<boolean> {
    if (this.created.size === 0 && this.changed.size === 0) return false
    const specs = this.transfers.flatMap((t) => [t.debit, t.credit])
    const missing = specs.filter((spec) => !known.has(accountKey(spec)) && !this.accounts.has(accountKey(spec)))
    if (missing.length > 0) for (const [key, id] of await accountIds(trx, missing)) this.accounts.set(key, id)
    const id = (spec: AccountSpec) => (known.get(accountKey(spec)) ?? this.accounts.get(accountKey(spec))) as string
    const transfers = this.transfers.map((t) => ({ ...t, debit: id(t.debit), credit: id(t.credit) }))
    const time = this.time.toISOString()
    const list = <T>(values: T[]) => sql.val(values)
    const big = (values: (bigint | null)[]) => list(values.map((v) => (v === null ? null : v.toString())))
    const o = [...this.created]
    const c = [...this.changed]
    const f = this.fills
    // One statement: the rows (`trade_write`, migration 0034-trade-batch: the new orders, the changed ones, which must
    // still be pending, the fills in the order they were made, the market row), and transferMany's locks on the
    // accounts in id order: transferMany's own statement, after it, reads their balances with a snapshot taken once
    // they are locked.
    const { rows } = await sql<{ changed: string }>`
      with locks as materialized (${lockAccounts(transfers)})
      select trade_write(${symbol}, ${time}::timestamptz, ${this.lastPrice?.toString() ?? null}::numeric,
          ${big(o.map((x) => x.id))}::bigint[], ${list(o.map((x) => x.orderSn))}::text[],
          ${big(o.map((x) => x.userId))}::bigint[], ${list(o.map((x) => x.side))}::text[],
          ${list(o.map((x) => x.kind))}::text[], ${big(o.map((x) => x.price))}::numeric[],
          ${big(o.map((x) => x.amount))}::numeric[], ${big(o.map((x) => x.filled))}::numeric[],
          ${big(o.map((x) => x.quote))}::numeric[], ${big(o.map((x) => x.fee))}::numeric[],
          ${big(o.map((x) => x.received))}::numeric[], ${big(o.map((x) => x.locked))}::numeric[],
          ${list(o.map((x) => x.status))}::text[], ${list(o.map((x) => x.clientOrderId))}::text[],
          ${big(c.map((x) => x.id))}::bigint[], ${big(c.map((x) => x.filled))}::numeric[],
          ${big(c.map((x) => x.quote))}::numeric[], ${big(c.map((x) => x.fee))}::numeric[],
          ${big(c.map((x) => x.received))}::numeric[], ${big(c.map((x) => x.locked))}::numeric[],
          ${list(c.map((x) => x.status))}::text[],
          ${big(f.map((x) => x.maker.id))}::bigint[], ${big(f.map((x) => x.taker.id))}::bigint[],
          ${big(f.map((x) => x.maker.userId))}::bigint[], ${big(f.map((x) => x.taker.userId))}::bigint[],
          ${list(f.map((x) => x.taker.side))}::text[], ${big(f.map((x) => x.price))}::numeric[],
          ${big(f.map((x) => x.amount))}::numeric[], ${big(f.map((x) => x.quote))}::numeric[],
          ${big(f.map((x) => x.makerFee))}::numeric[], ${big(f.map((x) => x.takerFee))}::numeric[]) as changed,
        (select count(*) from locks) as locked`.execute(trx)
    if (Number(rows[0]?.changed) !== c.length) throw new Error('trade: an order changed was not pending')
    try {
      await transferMany(trx, transfers, { locked: true })
    } catch (error) {
      if (error instanceof AppError && error.key === 'common.insufficientBalance') throw new BalanceChanged()
      throw error
    }
    return true
  }
}
