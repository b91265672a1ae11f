import { type Static, type TLiteral, Type } from 'typebox'
import { IntentPurpose, IntentStatus } from './assets.ts'
import { BaseUnits, Coin } from './common.ts'
import { Id } from './fields.ts'
import { homeRoutes } from './home.ts'
import { LIVE_TOPICS, type LiveTopic } from './live-protocol.ts'
import { BookLevel, MarketInfo, TradeOrder, TradeSide } from './trade.ts'
import { WithdrawalStatus } from './withdrawals.ts'

// The live channel's messages (docs/architecture.md "Live updates"). Plain values (path, topics, close codes) are in
// live-protocol.ts. Every event carries its topic and the topic's sequence number: one more than the last, on every
// instance; a client that sees a gap, or reconnects, takes a snapshot from the topic's REST calls (or resumes with
// `since`) and applies what arrives after it.

export const LiveTopicName = Type.Union(
  LIVE_TOPICS.map((topic) => Type.Literal(topic)) as unknown as [TLiteral<LiveTopic>],
)
/** A topic's sequence number. */
const Seq = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })

/** What a client sends. Anything else closes the connection (LIVE_CLOSE.protocol). */
export const LiveClientMessage = Type.Union([
  Type.Object(
    {
      op: Type.Literal('auth'),
      /** The User-Token and User-Address of a session: the `user` topic becomes available. */
      token: Type.String({ minLength: 1, maxLength: 256 }),
      address: Type.String({ minLength: 1, maxLength: 256 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      op: Type.Literal('auth'),
      /** An operator console session (Admin-Token): the `console` topic becomes available. */
      admin_token: Type.String({ minLength: 1, maxLength: 256 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      op: Type.Literal('sub'),
      topic: LiveTopicName,
      /** The last sequence number the client applied: the events after it are sent again when the server still has them. */
      since: Type.Optional(Seq),
    },
    { additionalProperties: false },
  ),
  Type.Object({ op: Type.Literal('unsub'), topic: LiveTopicName }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('pong') }, { additionalProperties: false }),
])
export type LiveClientMessage = Static<typeof LiveClientMessage>

/** A trade of the market (a fill), as the market topic announces it. */
export const LiveTrade = Type.Object({
  /** The maker's and the taker's order ids: '<maker>-<taker>'. */
  id: Type.String({ pattern: '^[0-9]+-[0-9]+$' }),
  price: BaseUnits,
  amount: BaseUnits,
  /** USDT base units exchanged. */
  quote: BaseUnits,
  /** The side of the order that took liquidity. */
  side: TradeSide,
  /** Unix milliseconds. */
  time: Type.Integer(),
})
export type LiveTrade = Static<typeof LiveTrade>

const HomePrice = homeRoutes.homePrice.data
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

/** The events of each topic, by `kind`. */
export const LiveEvents = {
  market: Type.Union([
    Type.Object({
      /** After every change of the book: its best LIVE_BOOK_DEPTH (live-protocol.ts) levels of each side, and the trades it made. */
      kind: Type.Literal('book'),
      best_bid: Nullable(BaseUnits),
      best_ask: Nullable(BaseUnits),
      bids: Type.Array(BookLevel),
      asks: Type.Array(BookLevel),
      /** Oldest first: the last one's price is the market's last price. */
      trades: Type.Array(LiveTrade),
    }),
    /** The market and its 24 h figures, shortly after trades. */
    Type.Object({ kind: Type.Literal('figures'), market: MarketInfo }),
  ]),
  /** The valuation price (the home screen's), shortly after trades. */
  home: Type.Object({ kind: Type.Literal('price'), price: HomePrice }),
  /** Notices or banners changed: read them again. */
  notice: Type.Object({ kind: Type.Literal('content') }),
  /** The business configuration (`config`) or the assets' settings (`assets`) changed: read them again. */
  config: Type.Object({ kind: Type.Union([Type.Literal('config'), Type.Literal('assets')]) }),
  /** A proof-of-liabilities root was published on chain. */
  liabilities: Type.Object({ kind: Type.Literal('root'), id: Id }),
  /** A new ranking snapshot. */
  rank: Type.Object({ kind: Type.Literal('rank') }),
  user: Type.Union([
    /** One of the user's balances after a movement of the ledger. */
    Type.Object({
      kind: Type.Literal('balance'),
      coin: Coin,
      account: Type.Union([Type.Literal('available'), Type.Literal('locked')]),
      balance: BaseUnits,
    }),
    Type.Object({
      kind: Type.Literal('withdrawal'),
      id: Id,
      status: WithdrawalStatus,
      signature: Nullable(Type.String()),
      reason: Nullable(Type.String()),
      updated_at: Type.String({ format: 'date-time' }),
    }),
    /** A payment intent credited (`fulfilled`: the ledger has it) or expired. */
    Type.Object({
      kind: Type.Literal('intent'),
      id: Id,
      purpose: IntentPurpose,
      status: IntentStatus,
      signature: Nullable(Type.String()),
    }),
    /** One of the user's orders after it was placed, filled or cancelled. */
    Type.Object({ kind: Type.Literal('order'), order: TradeOrder }),
    /**
     * The user's team changed: `member` is a new direct member, or, with `position`, a member up to 32 levels below
     * whose new stake, deposit or node changed the team's power (published while a campaign runs, so that its progress
     * page follows: docs/product.md#campaigns).
     */
    Type.Object({ kind: Type.Literal('team'), member: Id, position: Type.Optional(Type.Literal(true)) }),
  ]),
  console: Type.Union([
    Type.Object({ kind: Type.Literal('withdrawal'), id: Id, status: WithdrawalStatus }),
    /** A change under four eyes was proposed or decided. */
    Type.Object({ kind: Type.Literal('change') }),
    /** A job started or stopped failing. */
    Type.Object({ kind: Type.Literal('job'), name: Type.String() }),
  ]),
} satisfies Record<(typeof LIVE_TOPICS)[number], unknown>
export type LiveEvent<T extends keyof typeof LiveEvents> = Static<(typeof LiveEvents)[T]>

/** An event of `topic`: its number in the topic and what happened. */
const eventOf = <T extends keyof typeof LiveEvents>(topic: T) =>
  Type.Object({ type: Type.Literal('event'), topic: Type.Literal(topic), seq: Seq, data: LiveEvents[topic] })

/** What the server sends. */
export const LiveServerMessage = Type.Union([
  /** First message of a connection. */
  Type.Object({ type: Type.Literal('welcome'), heartbeat_ms: Type.Integer() }),
  /** The `auth` was accepted. */
  Type.Object({ type: Type.Literal('authed'), as: Type.Union([Type.Literal('user'), Type.Literal('admin')]) }),
  /**
   * The subscription is live from `seq` on. `resumed`: the events after the client's `since` follow (none when it was
   * current); otherwise the client takes a snapshot and applies the events after `seq`.
   */
  Type.Object({ type: Type.Literal('subscribed'), topic: LiveTopicName, seq: Seq, resumed: Type.Boolean() }),
  Type.Object({ type: Type.Literal('unsubscribed'), topic: LiveTopicName }),
  eventOf('market'),
  eventOf('home'),
  eventOf('notice'),
  eventOf('config'),
  eventOf('liabilities'),
  eventOf('rank'),
  eventOf('user'),
  eventOf('console'),
  Type.Object({ type: Type.Literal('ping') }),
  /**
   * A refused message: `forbidden` (a topic that needs a session or admin session the connection has not shown),
   * `session_invalid` (an `auth` refused; the connection then closes), `too_many` (subscriptions).
   */
  Type.Object({
    type: Type.Literal('error'),
    error: Type.Union([Type.Literal('forbidden'), Type.Literal('session_invalid'), Type.Literal('too_many')]),
    topic: Type.Optional(LiveTopicName),
  }),
])
export type LiveServerMessage = Static<typeof LiveServerMessage>
export type LiveEventMessage = Extract<LiveServerMessage, { type: 'event' }>
