// One quick-trade market in this process (docs/trade.md "Concurrency"): the in-memory order book, the queue that
// serializes every command on it, and the database transaction that persists each batch of commands together with its
// ledger transfers. The database is the truth: each batch locks the market row and compares its `seq` with the book's;
// when another process moved it on, the book catches up with the orders written since, and when that cannot be (a
// failed batch, a change of lot, a book far behind) it is rebuilt from the pending orders.
import { sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'
import { backoff, isConnectionError, isRetryable, noteCommitted, triesAfter } from '../../db/transient.ts'
import { AppError, refuse } from '../../lib/app-error.ts'
import { requireAsset } from '../assets/index.ts'
import { getBusinessConfig, QUOTE, storedVersion } from '../config/index.ts'
import { accountKey } from '../ledger/index.ts'
import {
  available,
  BalanceChanged,
  Batch,
  type BookState,
  type LimitInput,
  type OrderRow,
  type OrderState,
  orderState,
  type SwapInput,
  type SwapOrderInput,
  type SwapPlan,
  type SwapResult,
} from './batch.ts'
import { OrderBook } from './engine.ts'
import { publishBatch } from './live.ts'
import { type MarketRules, marketRules } from './rules.ts'

/** A command waiting in the market's queue. */
interface Job {
  /** False for reads: a batch of reads only needs a current book, not a transaction. */
  writes: boolean
  /** How many order ids it may create. */
  ids: number
  /** The available balance it spends from, and its client key: both read at the start of the batch. */
  payer?: {
    userId: bigint
    asset: string
    /** A limit order, which locks what it gives (a swap pays from the available balance). */
    locks: boolean
    clientOrderId?: string | undefined
  }
  run: (batch: Batch) => unknown
  /**
   * What the caller does with the command's result inside the batch's transaction, once the batch's writes are made:
   * its answer, stored with the command's effects (lib/route.ts). The job resolves with what it returns.
   */
  then?: ((trx: Transaction<DB>, value: never) => Promise<unknown>) | undefined
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * How many batches of other processes a book catches up with at most (it reads the orders they wrote); further behind,
 * it is rebuilt from the pending orders.
 */
const CATCH_UP_BATCHES = 1024n
/** How many ledger account ids a market keeps (four per trader: available and locked of both assets). */
const ACCOUNTS_KEPT = 65_536
/** How many commands one transaction takes at most. */
const MAX_BATCH = 256
/** How many times a batch is tried when the database refused it for a reason that may pass (deadlock, …); after a
 * broken connection, as many as db/transient.ts gives it. */
const ATTEMPTS = 5

/** A command's `then` refused (its answer cannot be stored): the batch runs again without that command. */
class ThenRefused extends Error {
  constructor(
    readonly job: Job,
    readonly refusal: AppError,
  ) {
    super(refusal.message)
  }
}

/** A changed balance, a conflict or a lost connection, before the batch committed (db/transient.ts). */
const retryable = (error: unknown) => error instanceof BalanceChanged || isRetryable(error)

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
  /**
   * Ledger account ids by accountKey, of the accounts the market's batches moved money between: an account's id never
   * changes, so a batch looks up only the accounts it has not met (ledger/bulk.ts accountIds).
   */
  private readonly accounts = new Map<string, string>()
  /** The rules of the configuration version last read by a batch (`trade_open` sends a version's value once). */
  private config: { id: string; at: string; rules: MarketRules } | undefined
  /**
   * Called after a batch that traded has committed: the market's figures and the valuation price derived from the
   * trades are published then (modules/home/live.ts), outside the batch's transaction.
   */
  onTraded: (() => void) | undefined
  /** How the book was brought up to date when the market row's seq was not its own: counted for the tests. */
  readonly books = { rebuilt: 0, caughtUp: 0 }

  constructor(
    readonly db: Database,
    readonly symbol: string,
  ) {}

  /** A limit order; `then` (see Job) turns its result into what the promise gives, in the batch's transaction. */
  placeLimit(input: LimitInput): Promise<OrderState>
  placeLimit<T>(input: LimitInput, then: (trx: Transaction<DB>, order: OrderState) => Promise<T>): Promise<T>
  placeLimit(input: LimitInput, then?: (trx: Transaction<DB>, order: OrderState) => Promise<unknown>) {
    const asset = input.side === 'sell' ? this.symbol : QUOTE
    return this.submit({
      writes: true,
      ids: 1,
      payer: { userId: input.userId, asset, locks: true, clientOrderId: input.clientOrderId },
      run: (batch) => batch.placeLimit(input),
      then,
    })
  }

  cancel(userId: bigint, orderId: bigint): Promise<OrderState>
  cancel<T>(userId: bigint, orderId: bigint, then: (trx: Transaction<DB>, order: OrderState) => Promise<T>): Promise<T>
  cancel(userId: bigint, orderId: bigint, then?: (trx: Transaction<DB>, order: OrderState) => Promise<unknown>) {
    return this.submit({ writes: true, ids: 0, run: (batch) => batch.cancel(userId, orderId), then })
  }

  swap(input: SwapOrderInput): Promise<SwapResult>
  swap<T>(input: SwapOrderInput, then: (trx: Transaction<DB>, result: SwapResult) => Promise<T>): Promise<T>
  swap(input: SwapOrderInput, then?: (trx: Transaction<DB>, result: SwapResult) => Promise<unknown>) {
    const asset = input.side === 'sell' ? this.symbol : QUOTE
    return this.submit({
      writes: true,
      ids: 1,
      payer: { userId: input.userId, asset, locks: false, clientOrderId: input.clientOrderId },
      run: (batch) => batch.swap(input),
      then,
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
    // The batch commits outside the caller's retry scope: a caller that sent a write must not be run again.
    if (job.writes) noteCommitted()
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ ...job, resolve: resolve as (value: unknown) => void, reject })
      if (!this.running) {
        this.running = true
        void this.drain()
      }
    })
  }

  /**
   * Runs batches while commands wait. Before each batch it lets the event loop turn once, so that the commands callers
   * send right after their previous answer (or at the same moment) join the batch instead of waiting for the next.
   */
  private async drain() {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve))
      if (this.queue.length === 0) break
      await this.runBatch(this.queue.splice(0, MAX_BATCH))
    }
    this.running = false
  }

  /** Runs the jobs as one batch and answers each of them; never throws. */
  private async runBatch(commands: Job[]) {
    let jobs = commands
    for (let attempt = 1; ; attempt++) {
      try {
        if (jobs.length === 0) return
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
        // Only that command is refused; the others run again without it (not counted as an attempt).
        if (error instanceof ThenRefused) {
          error.job.reject(error.refusal)
          jobs = jobs.filter((job) => job !== error.job)
          attempt--
          continue
        }
        if (retryable(error) && attempt < Math.max(ATTEMPTS, triesAfter(error))) {
          if (isConnectionError(error)) await backoff(attempt)
          continue
        }
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
    let found: Map<string, string> | undefined
    let traded = false
    const outcomes = await this.db.transaction().execute(async (trx) => {
      const batch = await this.open(trx, jobs)
      const outcomes = TradeMarket.apply(jobs, batch)
      next = batch.state
      found = batch.accounts
      if (await batch.flush(trx, this.symbol, this.accounts)) {
        next.seq += 1n
        await publishBatch(trx, batch, (await this.assets(trx)).baseDecimals)
        traded = batch.fills.length > 0
      }
      // The commands' answers, written with their effects (a refused command has none: it is answered as it is).
      for (const [i, job] of jobs.entries()) {
        const outcome = outcomes[i] as { value?: unknown }
        if (!job.then || !('value' in outcome)) continue
        try {
          outcome.value = await job.then(trx, outcome.value as never)
        } catch (error) {
          throw error instanceof AppError ? new ThenRefused(job, error) : error
        }
      }
      return outcomes
    })
    this.state = next ?? null
    // Accounts created by the batch exist once it has committed.
    for (const [key, id] of found ?? []) this.accounts.set(key, id)
    // The oldest out past the bound (a few MB): a trader met again is looked up again.
    for (const key of this.accounts.keys()) {
      if (this.accounts.size <= ACCOUNTS_KEPT) break
      this.accounts.delete(key)
    }
    if (traded) this.onTraded?.()
    return outcomes
  }

  /** The token's symbol and the decimals of both assets, read once (they never change). */
  async assets(db: Database = this.db) {
    if (!this.asset) {
      const [base, quote] = await Promise.all([requireAsset(db, this.symbol), requireAsset(db, QUOTE)])
      this.asset = { symbol: base.symbol, baseDecimals: base.decimals, quoteDecimals: quote.decimals }
    }
    return this.asset
  }

  /** The market's rules from the configuration in force (read per batch: a change applies to the next one). */
  private async rules(db: Database): Promise<MarketRules> {
    const [config, assets] = await Promise.all([getBusinessConfig(db), this.assets(db)])
    return marketRules(config, assets)
  }

  /**
   * Starts a batch in one round trip (`trade_open`, migration 0034-trade-batch): locks the market row (batches of all
   * processes run one at a time), then reads the configuration in force, order ids and the time, the payers' accounts
   * (balances, and ids for the market to keep) and the orders their client keys name; brings the book up to date (a
   * rebuild is a second statement).
   */
  private async open(trx: Transaction<DB>, jobs: Job[]): Promise<Batch> {
    const assets = await this.assets(trx)
    const payers = jobs.flatMap((job) => (job.payer ? [job.payer] : []))
    const keyed = payers.filter((p) => p.clientOrderId !== undefined)
    const count = jobs.reduce((n, job) => n + job.ids, 0)
    // The accounts the payers' commands will move money to, created if missing (those the market has met exist): the
    // asset they receive, and the locked account of what a limit order gives.
    const wanted = payers
      .flatMap((p) => [
        { userId: String(p.userId), asset: p.asset === this.symbol ? QUOTE : this.symbol, kind: 'available' },
        ...(p.locks ? [{ userId: String(p.userId), asset: p.asset, kind: 'locked' }] : []),
      ])
      .filter((spec) => !this.accounts.has(accountKey(spec)))
    const known = this.config
    const { rows } = await sql<{
      seq: string
      updated_at: Date
      now: Date
      ids: string[] | null
      config_id: string | null
      config_at: string | null
      config_value: unknown
      account_users: string[] | null
      account_assets: string[] | null
      account_kinds: string[] | null
      account_ids: string[] | null
      balances: string[] | null
      client_orders: OrderRow[]
    }>`
      select * from trade_open(${this.symbol}, ${QUOTE}, ${count}::integer, ${known?.id || null}::bigint,
        ${known?.at || null}::text, ${sql.val(payers.map((p) => String(p.userId)))}::bigint[],
        ${sql.val(keyed.map((p) => String(p.userId)))}::bigint[],
        ${sql.val(keyed.map((p) => p.clientOrderId as string))}::text[],
        ${sql.val(wanted.map((w) => w.userId))}::bigint[], ${sql.val(wanted.map((w) => w.asset))}::text[],
        ${sql.val(wanted.map((w) => w.kind))}::text[])`.execute(trx)
    const row = rows[0]
    if (!row) throw new Error(`trade: market ${this.symbol} could not be opened`)
    // The rules of the version in force: the function returns its value only when it is not the one known ('' for
    // none: the defaults).
    const id = row.config_id ?? ''
    const at = row.config_at ?? ''
    let rules = known?.id === id && known.at === at ? known.rules : undefined
    if (!rules) {
      rules = marketRules(storedVersion(id || 'default', row.config_value ?? undefined), assets)
      this.config = { id, at, rules }
    }
    const seq = BigInt(row.seq)
    let state = this.state
    // Until the batch commits, `this.state` is unknown: a failure leaves it null so the next batch rebuilds.
    this.state = null
    if (!state || state.lot !== rules.lot) state = await this.rebuild(trx, rules, seq)
    else if (state.seq !== seq) state = (await this.catchUp(trx, state, seq)) ?? (await this.rebuild(trx, rules, seq))

    const ids = (row.ids ?? []).map(BigInt)
    // A batch's time never goes back, whatever the clocks of the servers: the fills stay in time order.
    const time = new Date(Math.max(new Date(row.now).getTime(), new Date(row.updated_at).getTime()))
    const balances = new Map<string, bigint>()
    for (const p of payers) balances.set(accountKey(available(p.userId, p.asset)), 0n)
    // The payers' accounts: the batch's transfers need not look them up, and the market keeps them once the batch has
    // committed (this transaction may have created some).
    const accounts = new Map<string, string>()
    ;(row.account_users ?? []).forEach((userId, i) => {
      const key = accountKey({
        userId,
        asset: row.account_assets?.[i] as string,
        kind: row.account_kinds?.[i] as string,
      })
      accounts.set(key, row.account_ids?.[i] as string)
      if (row.account_kinds?.[i] === 'available') balances.set(key, BigInt(row.balances?.[i] as string))
    })
    const clientOrders = row.client_orders.map((order) =>
      orderState({ ...order, created_at: new Date(order.created_at), updated_at: new Date(order.updated_at) }),
    )
    const batch = new Batch(state, rules, time, ids, clientOrders, balances)
    for (const [key, id] of accounts) batch.accounts.set(key, id)
    return batch
  }

  /**
   * Brings a book another process moved on up to `seq` from the orders written since its own seq (each order row keeps
   * the seq of the batch that last wrote it: migration 0037-trade-book-catch-up): an order no longer pending leaves
   * the book, one still pending keeps its place with what is left of it, and a new one rests behind every order at its
   * price — its id is higher than theirs, as batches take their ids under the market row's lock — which is the book a
   * rebuild gives. Null when it cannot: the seq went back or is too far ahead, or a row does not fit the book (the
   * book the caller passed is then left half changed, and is rebuilt).
   */
  private async catchUp(trx: Transaction<DB>, state: BookState, seq: bigint): Promise<BookState | null> {
    if (seq < state.seq || seq - state.seq > CATCH_UP_BATCHES) return null
    const rows = await trx
      .selectFrom('trade_orders')
      .selectAll()
      .where('symbol', '=', this.symbol)
      .where('seq', '>', state.seq.toString())
      .orderBy('id')
      .execute()
    const { book, resting } = state
    for (const row of rows) {
      const order = orderState(row)
      if (order.status !== 'pending' || order.price === null) {
        book.cancel(order.id)
        resting.delete(order.id)
        continue
      }
      const remaining = order.amount - order.filled
      const fits = resting.has(order.id)
        ? book.reduce(order.id, remaining)
        : book.append({ id: order.id, userId: order.userId, side: order.side, price: order.price, remaining })
      if (!fits) return null
      resting.set(order.id, order)
    }
    this.books.caughtUp += 1
    return { ...state, seq }
  }

  /** The book as the database has it: the pending limit orders in id (time) order. */
  private async rebuild(trx: Transaction<DB>, rules: MarketRules, seq: bigint): Promise<BookState> {
    this.books.rebuilt += 1
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
