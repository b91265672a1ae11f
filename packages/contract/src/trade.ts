import { type Static, Type } from 'typebox'
import { BaseUnits, Coin, Empty, OptionalPage, PagedOf, PositiveBaseUnits, type RouteDef, route } from './common.ts'
import { Id, Text } from './fields.ts'
import { MAX_UNIX_SECONDS } from './ids.ts'

// Quick trade: the {product}/USDT order book, the chart and swaps.

/** Quick trade ({product}/USDT order book over internal balances, docs/trade.md). */
export const TradeSide = Type.Union([Type.Literal('buy'), Type.Literal('sell')])
export type TradeSide = Static<typeof TradeSide>
export const TradeOrderStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('completed'),
  Type.Literal('cancelled'),
])
export type TradeOrderStatus = Static<typeof TradeOrderStatus>
/** A price: USDT base units per whole {product} token, a multiple of the market's tick size. */
const TradePrice = Type.String({
  pattern: '^[1-9][0-9]{0,37}$',
  description: 'USDT base units per whole {product} token',
})
export const TradeOrder = Type.Object({
  id: Id,
  order_sn: Type.String({ description: 'Order number shown to the user' }),
  type: TradeSide,
  /** limit: placed on the book; swap: filled at once at the book's prices, never rests. */
  kind: Type.Union([Type.Literal('limit'), Type.Literal('swap')]),
  status: TradeOrderStatus,
  price: Type.Union([BaseUnits, Type.Null()], {
    description: 'Limit price, USDT base units per whole token; null for a swap',
  }),
  amount: BaseUnits,
  /** {product} base units filled so far. */
  sold_amount: BaseUnits,
  /** {product} base units not filled: still on the book while pending, returned when cancelled. */
  remaining_amount: BaseUnits,
  /** USDT base units per whole token over the fills (rounded down); null before the first fill. */
  average_price: Type.Union([BaseUnits, Type.Null()]),
  /** USDT base units exchanged by the fills, before fees. */
  quote_amount: BaseUnits,
  /** What the user received, net of the fee: USDT base units for a sell, {product} base units for a buy. */
  total_earnings: BaseUnits,
  /** The fee, in the asset received. */
  fee: BaseUnits,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})
export type TradeOrder = Static<typeof TradeOrder>
export const TradeFill = Type.Object({
  id: Id,
  price: BaseUnits,
  amount: BaseUnits,
  quote_amount: BaseUnits,
  /** This order's fee on this fill, in the asset it received. */
  fee: BaseUnits,
  role: Type.Union([Type.Literal('maker'), Type.Literal('taker')]),
  created_at: Type.String({ format: 'date-time' }),
})
export type TradeFill = Static<typeof TradeFill>
export const BookLevel = Type.Object({
  price: BaseUnits,
  /** {product} base units resting at this price. */
  amount: BaseUnits,
  orders: Type.Integer(),
})
export type BookLevel = Static<typeof BookLevel>
/** The market's rules and its last 24 hours (a rolling window ending now). */
export const MarketInfo = Type.Object({
  pair: Type.String({ description: 'e.g. PLG/USDT' }),
  symbol: Type.String(),
  quote: Type.String(),
  base_decimals: Type.Integer(),
  quote_decimals: Type.Integer(),
  tick_size: BaseUnits,
  lot_size: BaseUnits,
  min_amount: BaseUnits,
  max_amount: BaseUnits,
  fee_bps: Type.Integer(),
  /** The last trade's price; null before the first trade. */
  last_price: Type.Union([BaseUnits, Type.Null()]),
  /**
   * The quick trade's price: the last trade, or the reference price before the first trade. Valuations (staking,
   * the home price) use the valuation price instead.
   */
  price: BaseUnits,
  price_source: Type.Union([Type.Literal('reference'), Type.Literal('trade')]),
  open_24h: Type.Union([BaseUnits, Type.Null()]),
  high_24h: Type.Union([BaseUnits, Type.Null()]),
  low_24h: Type.Union([BaseUnits, Type.Null()]),
  /**
   * Last price against the price 24 hours ago (the last trade before the window, or the reference price when nothing
   * traded before it), in basis points (signed); 0 before the first trade.
   */
  change_24h_bps: Type.Integer(),
  /** {product} base units traded in the window. */
  volume_24h: BaseUnits,
  quote_volume_24h: BaseUnits,
})
export type MarketInfo = Static<typeof MarketInfo>
export const CandleInterval = Type.Union([
  Type.Literal('1m'),
  Type.Literal('5m'),
  Type.Literal('15m'),
  Type.Literal('1h'),
  Type.Literal('4h'),
  Type.Literal('1d'),
])
export type CandleInterval = Static<typeof CandleInterval>
export const Candle = Type.Object({
  /** Start of the interval, Unix seconds (UTC). */
  time: Type.Integer(),
  open: BaseUnits,
  high: BaseUnits,
  low: BaseUnits,
  close: BaseUnits,
  volume: BaseUnits,
  quote_volume: BaseUnits,
})
export type Candle = Static<typeof Candle>
/** A client's key for an order or swap: retrying with the same key returns the first result and changes nothing. */
const ClientOrderId = Type.Optional(
  Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$', description: 'Idempotency key chosen by the client' }),
)
const PlaceOrder = Type.Object(
  { price: TradePrice, amount: PositiveBaseUnits, client_order_id: ClientOrderId },
  { additionalProperties: false },
)
const SwapFrom = Text({ minLength: 1, maxLength: 16, description: 'The asset given: {product} or USDT' })

export const tradeRoutes = {
  tradeSell: route({
    path: '/Trade/Trade_Order/sell',
    idempotent: true,
    auth: true,
    tag: 'trade',
    summary:
      'Place a limit sell order of {product} for USDT: the amount is locked, matched at once against bids at or above ' +
      'the price (price-time priority, partial fills), and the rest stays on the book',
    body: PlaceOrder,
    data: TradeOrder,
  }),
  tradeBuy: route({
    path: '/Trade/Trade_Order/buy',
    idempotent: true,
    auth: true,
    tag: 'trade',
    summary:
      'Place a limit buy order of {product} with USDT: price × amount is locked, matched at once against asks at or ' +
      'below the price (a better price returns the difference), and the rest stays on the book',
    body: PlaceOrder,
    data: TradeOrder,
  }),
  tradeMyOrders: route({
    path: '/Trade/Trade_Order/mySellOrder',
    auth: true,
    tag: 'trade',
    summary: "The user's orders of a status (every status without one; both sides unless type is given), newest first",
    body: Type.Object(
      { status: Type.Optional(TradeOrderStatus), type: Type.Optional(TradeSide), ...OptionalPage },
      { additionalProperties: false },
    ),
    data: PagedOf(TradeOrder),
  }),
  tradeOrderDetail: route({
    path: '/Trade/Trade_Order/detailOrder',
    auth: true,
    tag: 'trade',
    summary: "One of the user's orders with its fills, newest first; anyone else's is not found",
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: Type.Object({ order: TradeOrder, fills: Type.Array(TradeFill) }),
  }),
  tradeCancel: route({
    path: '/Trade/Trade_Order/cancelOrder',
    idempotent: true,
    auth: true,
    tag: 'trade',
    summary:
      "Cancel one of the user's pending orders: its unfilled rest leaves the book and the locked funds return to the " +
      "balance ('Revocation successfully'); any other order is refused ('Failed to withdraw order.')",
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: TradeOrder,
  }),
  tradeHome: route({
    path: '/trade/Trade_Order/home',
    auth: false,
    tag: 'trade',
    summary: 'The market: rules, last price and 24 h figures, best bid and ask and the depth of each side',
    body: Type.Object(
      { depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })) },
      { additionalProperties: false },
    ),
    data: Type.Object({
      market: MarketInfo,
      best_bid: Type.Union([BaseUnits, Type.Null()]),
      best_ask: Type.Union([BaseUnits, Type.Null()]),
      /** Best first: highest bids, lowest asks. */
      bids: Type.Array(BookLevel),
      asks: Type.Array(BookLevel),
    }),
  }),
  trendChart: route({
    path: '/trade/Trade_Order/trendChart',
    auth: false,
    tag: 'trade',
    summary:
      'OHLC candles of an interval from the trades, oldest first: the latest `limit` of them, or those before ' +
      '`before` (Unix seconds) to page back; intervals without trades are left out',
    body: Type.Object(
      {
        interval: CandleInterval,
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 200 })),
        before: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_UNIX_SECONDS })),
      },
      { additionalProperties: false },
    ),
    data: Type.Object({ interval: CandleInterval, list: Type.Array(Candle) }),
  }),
  trendChartPageInfo: route({
    path: '/trade/Trade_Order/trendChartPageInfo',
    auth: false,
    tag: 'trade',
    summary: 'The chart page header: the market and its 24 h figures, the intervals and the default one',
    body: Empty,
    data: Type.Object({
      market: MarketInfo,
      intervals: Type.Array(CandleInterval),
      default_interval: CandleInterval,
    }),
  }),
  swapQuote: route({
    path: '/trade/swap/quote',
    auth: false,
    tag: 'trade',
    summary:
      'What swapping an amount of {product} or USDT would give at the book now: the expected amount after the fee, ' +
      'the average and best price, the price impact and the minimum received for a slippage tolerance',
    body: Type.Object(
      {
        from: SwapFrom,
        amount: PositiveBaseUnits,
        slippage_bps: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000, default: 50 })),
      },
      { additionalProperties: false },
    ),
    data: Type.Object({
      from: Coin,
      to: Coin,
      /** What would be spent: less than asked when the book or the lot size cannot take it all. */
      amount_in: BaseUnits,
      /** What would be received, net of the fee. */
      amount_out: BaseUnits,
      fee: BaseUnits,
      best_price: Type.Union([BaseUnits, Type.Null()]),
      average_price: Type.Union([BaseUnits, Type.Null()]),
      /** How far the average price is from the best price, basis points. */
      price_impact_bps: Type.Integer(),
      minimum_received: BaseUnits,
      /** False when the book cannot take the whole amount. */
      enough_liquidity: Type.Boolean(),
    }),
  }),
  swap: route({
    path: '/trade/swap/swap',
    idempotent: true,
    auth: true,
    tag: 'trade',
    summary:
      "Swap {product} ↔ USDT at once at the book's prices (never rests on the book); refused with nothing changed " +
      'when it would give less than min_received',
    body: Type.Object(
      { from: SwapFrom, amount: PositiveBaseUnits, min_received: BaseUnits, client_order_id: ClientOrderId },
      { additionalProperties: false },
    ),
    data: Type.Object({ order: TradeOrder, amount_in: BaseUnits, amount_out: BaseUnits }),
  }),
} as const satisfies Record<string, RouteDef>
