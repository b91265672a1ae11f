// Quick trade (docs/product.md#quick-trade, docs/trade.md): limit orders of {product} for USDT on the market's book,
// swaps at the book's prices, the user's orders with their fills, the market figures and the candles.
import {
  type api,
  CANDLE_SECONDS,
  type Candle,
  type CandleInterval,
  Code,
  type DataOf,
  type MarketInfo,
  type TradeFill,
  type TradeOrder,
  type TradeOrderStatus,
} from '@solpledge/contract'
import { sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'
import { AppError, invalid } from '../../lib/app-error.ts'
import type { AnswerIn } from '../../lib/commit.ts'
import { pageOf } from '../../lib/paging.ts'
import { getBusinessConfig, QUOTE } from '../config/index.ts'
import { type OrderState, orderState, type SwapResult } from './batch.ts'
import type { Side } from './engine.ts'
import type { TradeMarket } from './market.ts'
import { lastTradePrice } from './price.ts'
import { marketRules } from './rules.ts'

/** The largest id PostgreSQL's bigint holds: a larger one names no order. */
const MAX_ID = 2n ** 63n - 1n

export function presentOrder(order: OrderState, baseDecimals: number): TradeOrder {
  return {
    id: order.id.toString(),
    order_sn: order.orderSn,
    type: order.side,
    kind: order.kind,
    status: order.status,
    price: order.price === null ? null : order.price.toString(),
    amount: order.amount.toString(),
    sold_amount: order.filled.toString(),
    remaining_amount: (order.amount - order.filled).toString(),
    average_price: order.filled === 0n ? null : ((order.quote * 10n ** BigInt(baseDecimals)) / order.filled).toString(),
    quote_amount: order.quote.toString(),
    total_earnings: order.received.toString(),
    fee: order.fee.toString(),
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
  }
}

const baseDecimals = async (market: TradeMarket, db: Database = market.db) => (await market.assets(db)).baseDecimals

/**
 * The answer of a command made by the market's batch, inside the batch's transaction: presented there, and with an
 * Idempotency-Key stored there with the command's effects (`answerIn` of the route, lib/route.ts).
 */
const answering =
  <S, D>(market: TradeMarket, present: (result: S, decimals: number) => D, answerIn?: AnswerIn<D>) =>
  async (trx: Transaction<DB>, result: S): Promise<D> => {
    const data = present(result, await baseDecimals(market, trx))
    await answerIn?.(trx, data)
    return data
  }

/** POST sell / buy: a limit order; it matches at once what it can and rests the rest. */
export async function placeOrder(
  market: TradeMarket,
  userId: string,
  side: Side,
  body: { price: string; amount: string; client_order_id?: string | undefined },
  answerIn?: AnswerIn<TradeOrder>,
): Promise<TradeOrder> {
  return market.placeLimit(
    {
      userId: BigInt(userId),
      side,
      price: BigInt(body.price),
      amount: BigInt(body.amount),
      clientOrderId: body.client_order_id,
    },
    answering(market, presentOrder, answerIn),
  )
}

/** POST cancelOrder: only the user's own pending order; anything else is 'Failed to withdraw order.'. */
export async function cancelOrder(
  market: TradeMarket,
  userId: string,
  id: string,
  answerIn?: AnswerIn<TradeOrder>,
): Promise<TradeOrder> {
  return market.cancel(BigInt(userId), BigInt(id), answering(market, presentOrder, answerIn))
}

/** The side of a swap from the asset given: {product} is sold, USDT buys. */
function swapSide(market: TradeMarket, from: string): Side {
  if (from.toUpperCase() === market.symbol.toUpperCase()) return 'sell'
  if (from.toUpperCase() === QUOTE) return 'buy'
  throw invalid('trade.unknownAsset', { product: market.symbol })
}

/** POST swap: at once at the book's prices, refused with nothing changed below `min_received`. */
export async function swap(
  market: TradeMarket,
  userId: string,
  body: { from: string; amount: string; min_received: string; client_order_id?: string | undefined },
  answerIn?: AnswerIn<DataOf<typeof api.swap>>,
): Promise<DataOf<typeof api.swap>> {
  const present = (result: SwapResult, decimals: number) => ({
    order: presentOrder(result.order, decimals),
    amount_in: result.amountIn.toString(),
    amount_out: result.amountOut.toString(),
  })
  return market.swap(
    {
      userId: BigInt(userId),
      side: swapSide(market, body.from),
      amount: BigInt(body.amount),
      minReceived: BigInt(body.min_received),
      clientOrderId: body.client_order_id,
    },
    answering(market, present, answerIn),
  )
}

/** POST swap quote: what the swap would give at the book now. */
export async function swapQuote(
  market: TradeMarket,
  body: { from: string; amount: string; slippage_bps?: number | undefined },
): Promise<DataOf<typeof api.swapQuote>> {
  const side = swapSide(market, body.from)
  const slippage = BigInt(body.slippage_bps ?? 50)
  const { plan, rules } = await market.read((view) => ({
    plan: view.plan({ side, amount: BigInt(body.amount) }),
    rules: view.rules,
  }))
  const average = plan.filled === 0n ? null : (plan.quote * rules.baseUnit) / plan.filled
  const best = plan.bestPrice
  const impact = average === null || best === null ? 0n : ((average - best) * 10_000n) / best
  return {
    from: side === 'sell' ? market.symbol : QUOTE,
    to: side === 'sell' ? QUOTE : market.symbol,
    amount_in: plan.amountIn.toString(),
    amount_out: plan.amountOut.toString(),
    fee: plan.fee.toString(),
    best_price: best === null ? null : best.toString(),
    average_price: average === null ? null : average.toString(),
    price_impact_bps: Number(impact < 0n ? -impact : impact),
    minimum_received: ((plan.amountOut * (10_000n - slippage)) / 10_000n).toString(),
    enough_liquidity: plan.enough,
  }
}

/** The user's orders of a status (of every status without one), newest first. */
export async function myOrders(
  market: TradeMarket,
  userId: string,
  query: { status?: TradeOrderStatus | undefined; type?: Side | undefined; page: number; limit: number },
): Promise<DataOf<typeof api.tradeMyOrders>> {
  const base = market.db
    .selectFrom('trade_orders')
    .where('user_id', '=', userId)
    .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status as TradeOrderStatus))
    .$if(query.type !== undefined, (qb) => qb.where('side', '=', query.type as Side))
  const [{ rows, total }, decimals] = await Promise.all([
    pageOf(base, query, (qb) => qb.selectAll().orderBy('id', 'desc')),
    baseDecimals(market),
  ])
  return {
    list: rows.map((row) => presentOrder(orderState(row), decimals)),
    total,
    page: query.page,
    limit: query.limit,
  }
}

/** One of the user's orders with its fills, newest first; anyone else's order does not exist for them. */
export async function orderDetail(
  market: TradeMarket,
  userId: string,
  id: string,
): Promise<DataOf<typeof api.tradeOrderDetail>> {
  const notFound = new AppError(Code.NOT_FOUND, 'trade.orderNotFound')
  if (BigInt(id) > MAX_ID) throw notFound
  const { db } = market
  const row = await db
    .selectFrom('trade_orders')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) throw notFound
  const [fills, decimals] = await Promise.all([
    db
      .selectFrom('trade_fills')
      .selectAll()
      .where((eb) => eb.or([eb('maker_order_id', '=', id), eb('taker_order_id', '=', id)]))
      .orderBy('id', 'desc')
      .execute(),
    baseDecimals(market),
  ])
  return {
    order: presentOrder(orderState(row), decimals),
    fills: fills.map((fill): TradeFill => {
      const maker = fill.maker_order_id === row.id
      return {
        id: fill.id,
        price: fill.price,
        amount: fill.amount,
        quote_amount: fill.quote,
        fee: maker ? fill.maker_fee : fill.taker_fee,
        role: maker ? 'maker' : 'taker',
        created_at: fill.created_at.toISOString(),
      }
    }),
  }
}

/**
 * The market's rules, price and figures of the last 24 hours (a rolling window ending now). Its price is the last
 * trade (the reference price before the first): the valuation price is for everything but the quick trade.
 */
export async function marketInfo(market: TradeMarket): Promise<MarketInfo> {
  const { db, symbol } = market
  const [config, last, assets, day] = await Promise.all([
    getBusinessConfig(db),
    lastTradePrice(db, symbol),
    market.assets(),
    sql<{
      open: string | null
      before: string | null
      high: string | null
      low: string | null
      volume: string | null
      quote_volume: string | null
    }>`
      select
        (select price from trade_fills where symbol = ${symbol} and created_at > now() - interval '24 hours'
          order by created_at, id limit 1) as open,
        (select price from trade_fills where symbol = ${symbol} and created_at <= now() - interval '24 hours'
          order by created_at desc, id desc limit 1) as before,
        max(price) as high, min(price) as low, sum(amount) as volume, sum(quote) as quote_volume
      from trade_fills where symbol = ${symbol} and created_at > now() - interval '24 hours'`.execute(db),
  ])
  const rules = marketRules(config, assets)
  const figures = day.rows[0]
  // The price 24 hours ago: the last trade before the window, or the reference price when nothing traded before.
  const before = BigInt(figures?.before ?? config.referencePrice)
  return {
    pair: `${assets.symbol}/${QUOTE}`,
    symbol: assets.symbol,
    quote: QUOTE,
    base_decimals: assets.baseDecimals,
    quote_decimals: assets.quoteDecimals,
    tick_size: rules.tick.toString(),
    lot_size: rules.lot.toString(),
    min_amount: rules.min.toString(),
    max_amount: rules.max.toString(),
    fee_bps: rules.feeBps,
    last_price: last === null ? null : last.toString(),
    price: (last ?? BigInt(config.referencePrice)).toString(),
    price_source: last === null ? 'reference' : 'trade',
    open_24h: figures?.open ?? null,
    high_24h: figures?.high ?? null,
    low_24h: figures?.low ?? null,
    change_24h_bps: last === null || before === 0n ? 0 : Number(((last - before) * 10_000n) / before),
    volume_24h: figures?.volume ?? '0',
    quote_volume_24h: figures?.quote_volume ?? '0',
  }
}

/** POST trade home: the market, best bid and ask, and `depth` levels of each side (best first). */
export async function tradeHome(market: TradeMarket, depth: number): Promise<DataOf<typeof api.tradeHome>> {
  const [book, info] = await Promise.all([
    market.read(({ book }) => {
      const levels = (side: Side) =>
        book.depth(side, depth).map((level) => ({
          price: level.price.toString(),
          amount: level.amount.toString(),
          orders: level.orders,
        }))
      return {
        best_bid: book.bestBid()?.toString() ?? null,
        best_ask: book.bestAsk()?.toString() ?? null,
        bids: levels('buy'),
        asks: levels('sell'),
      }
    }),
    marketInfo(market),
  ])
  return { market: info, ...book }
}

const CANDLE_INTERVALS: Record<CandleInterval, number> = CANDLE_SECONDS

/** Candles of `seconds` from the fills in [from, to) (either bound may be open), newest first, at most `limit`. */
async function candlesBetween(
  db: Database,
  symbol: string,
  seconds: number,
  range: { from?: number; to?: number },
  limit: number,
): Promise<Candle[]> {
  const { rows } = await sql<{
    time: string
    open: string
    high: string
    low: string
    close: string
    volume: string
    quote_volume: string
  }>`
    select floor(extract(epoch from created_at) / ${seconds})::bigint * ${seconds} as time,
      (array_agg(price order by created_at, id))[1] as open, max(price) as high, min(price) as low,
      (array_agg(price order by created_at desc, id desc))[1] as close,
      sum(amount) as volume, sum(quote) as quote_volume
    from trade_fills
    where symbol = ${symbol}
      ${range.from === undefined ? sql`` : sql`and created_at >= to_timestamp(${range.from})`}
      ${range.to === undefined ? sql`` : sql`and created_at < to_timestamp(${range.to})`}
    group by 1
    order by 1 desc
    limit ${limit}`.execute(db)
  return rows.map((row) => ({ ...row, time: Number(row.time) }))
}

/**
 * POST trendChart: the latest `limit` candles with trades, or those starting before `before`, oldest first. The recent
 * window of `limit` intervals is read first (an index range of the fills); older candles only when it has too few.
 */
export async function trendChart(
  db: Database,
  symbol: string,
  query: { interval: CandleInterval; limit: number; before?: number | undefined },
): Promise<DataOf<typeof api.trendChart>> {
  const seconds = CANDLE_INTERVALS[query.interval]
  // Fills before the interval that holds `before`'s bound: every candle starting before `before`.
  const to = query.before === undefined ? undefined : Math.ceil(query.before / seconds) * seconds
  const end = to ?? (Math.floor(Date.now() / 1000 / seconds) + 1) * seconds
  const from = end - query.limit * seconds
  const recent = await candlesBetween(db, symbol, seconds, { from, ...(to === undefined ? {} : { to }) }, query.limit)
  const older =
    recent.length < query.limit
      ? await candlesBetween(db, symbol, seconds, { to: from }, query.limit - recent.length)
      : []
  return { interval: query.interval, list: [...recent, ...older].reverse() }
}

const DEFAULT_INTERVAL: CandleInterval = '15m'

/** POST trendChartPageInfo: the chart page's header. */
export async function trendChartPageInfo(market: TradeMarket): Promise<DataOf<typeof api.trendChartPageInfo>> {
  return {
    market: await marketInfo(market),
    intervals: Object.keys(CANDLE_INTERVALS) as CandleInterval[],
    default_interval: DEFAULT_INTERVAL,
  }
}
