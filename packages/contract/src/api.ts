import { type Static, type TLiteral, type TSchema, Type } from 'typebox'
import {
  Adjustment as AdjustmentSchema,
  AdjustmentStatus,
  AdminAsset,
  AdminBanner,
  AdminChange,
  AdminChangeStatus,
  AdminLoginData,
  AdminNotice,
  AdminPage,
  AdminPaged,
  type AdminRole,
  AdminRoleSchema,
  AdminSession,
  AdminUser,
  AdminUserDetail,
  AdminUserRow,
  AdminWithdrawal,
  AssetSettings,
  AssetVersion,
  AuditEntry,
  BannerTranslation,
  ConfigVersion,
  JobStatus,
  NoticeTranslation,
  Reason,
  SiteUrl,
  UPLOAD_FIELD,
  Upload,
  UserSession,
} from './admin.ts'
import { BusinessConfig } from './business-config.ts'
import { LEDGER_TYPES } from './constants.ts'
import { Id, MultilineText, NumberedEnum, Text } from './fields.ts'
import { MAX_UNIX_SECONDS } from './ids.ts'

export interface RouteDef<
  B extends TSchema = TSchema,
  D extends TSchema = TSchema,
  A extends boolean = boolean,
  M extends AdminRole | undefined = AdminRole | undefined,
> {
  /** Path below API_BASE, spelled as the spec spells it. */
  path: string
  /** True when the call needs a session (User-Token and User-Address headers). */
  auth: A
  /** True for operator calls: they need the Operator-Token header (OPERATOR_TOKEN, see README). */
  operator?: boolean
  /**
   * Operator console routes: the weakest admin role allowed (viewer < operator < admin). They need an admin session
   * (Admin-Token header); anyone else is answered -403 before the handler runs.
   */
  admin?: M
  /** A multipart/form-data upload instead of a JSON body: the name of its one file field. */
  multipart?: string
  /** The call moves money or money state: it accepts the IDEMPOTENCY_HEADER and replays its first answer. */
  idempotent?: boolean
  summary: string
  tag: string
  body: B
  data: D
}
const route = <
  B extends TSchema,
  D extends TSchema,
  const A extends boolean,
  const M extends AdminRole | undefined = undefined,
>(
  def: RouteDef<B, D, A, M>,
) => def

/** The response schema of a successful call. Failures carry the same envelope with `data: null`. */
export const envelope = <T extends TSchema>(data: T) => Type.Object({ code: Type.Integer(), msg: Type.String(), data })

export type BodyOf<R extends RouteDef> = Static<R['body']>
export type DataOf<R extends RouteDef> = Static<R['data']>

/** A base58 wallet address; decoded and checked for 32 bytes by the server. */
export const Address = Text({ minLength: 1, maxLength: 64, description: 'Solana wallet address (base58)' })

export const User = Type.Object({
  id: Type.String({ description: 'User id' }),
  address: Type.String(),
  parent_address: Type.Union([Type.String(), Type.Null()], { description: 'Referrer wallet address' }),
  invite_code: Type.String({ description: "The user's own invite code: their wallet address" }),
  created_at: Type.String({ format: 'date-time' }),
})
export type User = Static<typeof User>

export const LoginData = Type.Object({
  ...User.properties,
  token: Type.String({ description: 'Session token: send it as the User-Token header' }),
  expires_at: Type.String({ format: 'date-time' }),
})
export type LoginData = Static<typeof LoginData>

const Empty = Type.Object({}, { additionalProperties: false })

/** Money in JSON: base units as a decimal string (see amount.ts). */
export const BaseUnits = Type.String({ pattern: '^(0|[1-9][0-9]{0,37})$', description: 'Amount in base units' })
export const PositiveBaseUnits = Type.String({
  pattern: '^[1-9][0-9]{0,37}$',
  description: 'Amount in base units, > 0',
})
/** A signed amount in base units: negative when it left the account. */
export const SignedBaseUnits = Type.String({ pattern: '^-?(0|[1-9][0-9]{0,37})$' })
export const Coin = Text({ minLength: 1, maxLength: 16, description: 'Asset code, e.g. USDT' })
const Flag = Type.Union([Type.Literal(0), Type.Literal(1)])
const Page = {
  page: Type.Integer({ minimum: 1, maximum: 100_000 }),
  limit: Type.Integer({ minimum: 1, maximum: 100 }),
}

export const AssetBalance = Type.Object({
  coin: Coin,
  symbol: Type.String(),
  decimals: Type.Integer(),
  mint: Type.Union([Type.String(), Type.Null()]),
  balance: BaseUnits,
  available: BaseUnits,
  locked: BaseUnits,
  is_user_recharge: Flag,
  is_withdraw: Flag,
  min_atm_money: BaseUnits,
  fee: BaseUnits,
  /**
   * What the balance is worth in USDT base units (rounded down): USDT at par, the platform token at its valuation
   * price (the one staking uses); null for an asset without a price.
   */
  usdt_value: Type.Union([BaseUnits, Type.Null()]),
})
export type AssetBalance = Static<typeof AssetBalance>

/** A calendar day in UTC. */
export const Day = Type.String({
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  format: 'date',
  description: 'UTC calendar day, YYYY-MM-DD',
})

/** One of LEDGER_TYPES (constants.ts): a union of literals, as every closed set of values in the contract. */
export type LedgerType = (typeof LEDGER_TYPES)[number]
export const LedgerType = Type.Union(
  LEDGER_TYPES.map((type) => Type.Literal(type)) as unknown as [TLiteral<LedgerType>],
)

export const LedgerEntry = Type.Object({
  id: Id,
  coin: Coin,
  type: LedgerType,
  /** Signed from the point of view of `account`: positive entered it, negative left it. */
  amount: SignedBaseUnits,
  account: Type.Union([Type.Literal('available'), Type.Literal('locked')]),
  reference: Type.Union([Type.String(), Type.Null()]),
  /** The day a settlement credit pays for (type 'settlement'); null for every other entry. */
  day: Type.Union([Day, Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
})
export type LedgerEntry = Static<typeof LedgerEntry>
const PagedOf = <T extends TSchema>(item: T) =>
  Type.Object({ list: Type.Array(item), total: Type.Integer(), page: Type.Integer(), limit: Type.Integer() })
const OptionalPage = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
}

export const IntentPurpose = Type.Union([Type.Literal('recharge'), Type.Literal('stake'), Type.Literal('node')])
export type IntentPurpose = Static<typeof IntentPurpose>
export const IntentStatus = Type.Union([Type.Literal('pending'), Type.Literal('fulfilled'), Type.Literal('expired')])
export const PaymentIntent = Type.Object({
  id: Id,
  purpose: IntentPurpose,
  coin: Coin,
  mint: Type.String(),
  decimals: Type.Integer(),
  amount: PositiveBaseUnits,
  recipient: Type.String({ description: 'Wallet that receives: pay into its associated token account' }),
  recipient_token_account: Type.String(),
  reference: Type.String({ description: 'Add as a read-only, non-signer key of the TransferChecked instruction' }),
  status: IntentStatus,
  signature: Type.Union([Type.String(), Type.Null()]),
  /** Stake intents: the period chosen. */
  days: Type.Union([Type.Integer(), Type.Null()]),
  /** Node intents: the level bought. */
  level: Type.Union([Type.String(), Type.Null()]),
  /** After fulfilment of a stake or node intent: the stake or node made from it. */
  applied_id: Type.Union([Id, Type.Null()]),
  /**
   * After fulfilment, when the stake or node could not be made (e.g. the level sold out meanwhile): the message key
   * of the reason. The payment is then in the asset balance.
   */
  refusal: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.String({ format: 'date-time' }),
  created_at: Type.String({ format: 'date-time' }),
})
export type PaymentIntent = Static<typeof PaymentIntent>

export const WithdrawalStatus = Type.Union([
  Type.Literal('review'),
  Type.Literal('pending'),
  Type.Literal('sent'),
  Type.Literal('confirmed'),
  Type.Literal('failed'),
  Type.Literal('rejected'),
])
export const Withdrawal = Type.Object({
  id: Id,
  coin: Coin,
  decimals: Type.Integer(),
  amount: PositiveBaseUnits,
  fee: BaseUnits,
  receive: PositiveBaseUnits,
  address: Type.String({ description: "The wallet the tokens are sent to (the user's own)" }),
  status: WithdrawalStatus,
  signature: Type.Union([Type.String(), Type.Null()]),
  /** Why the platform rejected it (status rejected), as the operator wrote it; null otherwise. */
  reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
})
export type Withdrawal = Static<typeof Withdrawal>

export const PledgeConfig = Type.Object({
  symbol: Type.String(),
  decimals: Type.Integer(),
  /** USDT base units per whole token: the valuation price (docs/trade.md), never the last trade of a thin book. */
  price: PositiveBaseUnits,
  min_u: BaseUnits,
  /** The minimum stake in the token's base units at the current price (rounded up, never below min_u). */
  min_amount: BaseUnits,
  periods: Type.Array(Type.Object({ days: Type.Integer(), output_bps: Type.Integer(), power_bps: Type.Integer() })),
})
export type PledgeConfig = Static<typeof PledgeConfig>

export const NodeLevelInfo = Type.Object({
  code: Type.String({ description: 'junior, senior, super, …' }),
  price_usdt: PositiveBaseUnits,
  supply_cap: Type.Integer(),
  sold: Type.Integer(),
  remaining: Type.Integer(),
  power_bonus_bps: Type.Integer(),
  dividend_weight: Type.Integer(),
  one_per_user: Type.Boolean(),
})
export const UserNode = Type.Object({
  id: Id,
  level: Type.String(),
  price_usdt: PositiveBaseUnits,
  power_bonus_bps: Type.Integer(),
  dividend_weight: Type.Integer(),
  /** Node-pool dividends received so far, in {product} base units (paid by the daily settlement). */
  dividends: BaseUnits,
  created_at: Type.String({ format: 'date-time' }),
})
export type UserNode = Static<typeof UserNode>

/** A stake's status; spec clients send it as a number too (1 mining, 2 expired). */
export const STAKE_STATUSES = ['mining', 'expired'] as const
export const StakeStatus = Type.Union([Type.Literal('mining'), Type.Literal('expired')])
/** A stake (SPEC staking record): amounts in {product} base units, value and power in USDT base units. */
export const Stake = Type.Object({
  id: Id,
  coin: Coin,
  decimals: Type.Integer(),
  amount: PositiveBaseUnits,
  price: PositiveBaseUnits,
  usdt_value: BaseUnits,
  days: Type.Integer(),
  output_bps: Type.Integer(),
  power: BaseUnits,
  total_output: BaseUnits,
  produced: BaseUnits,
  remaining: BaseUnits,
  start_day: Day,
  end_day: Day,
  status: StakeStatus,
  paid: Type.Union([Type.Literal('balance'), Type.Literal('chain')]),
  created_at: Type.String({ format: 'date-time' }),
})
export type Stake = Static<typeof Stake>

export const OutputType = Type.Union([
  Type.Literal('pledge_output'),
  Type.Literal('finance_output'),
  Type.Literal('node_dividend'),
  Type.Literal('referral_reward'),
])
export type OutputType = Static<typeof OutputType>
/** One credit of the daily settlement (SPEC output-detail table: time, currency, amount, type). */
export const OutputRecord = Type.Object({
  id: Id,
  day: Day,
  coin: Coin,
  decimals: Type.Integer(),
  amount: PositiveBaseUnits,
  type: OutputType,
  created_at: Type.String({ format: 'date-time' }),
})
export type OutputRecord = Static<typeof OutputRecord>

export const FinanceStatus = Type.Union([Type.Literal('active'), Type.Literal('expired')])
export const FinanceProduct = Type.Object({
  days: Type.Integer(),
  power_bps: Type.Integer(),
  output_bps: Type.Integer(),
})
/** A finance deposit (SPEC finance record): amounts in the deposit's coin, power in USDT base units. */
export const FinanceDeposit = Type.Object({
  id: Id,
  coin: Coin,
  decimals: Type.Integer(),
  amount: PositiveBaseUnits,
  days: Type.Integer(),
  power_bps: Type.Integer(),
  output_bps: Type.Integer(),
  power: BaseUnits,
  total_output: BaseUnits,
  output: BaseUnits,
  start_day: Day,
  end_day: Day,
  status: FinanceStatus,
  redeemable: Type.Boolean({ description: 'Expired and not yet redeemed' }),
  redeemed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
})
export type FinanceDeposit = Static<typeof FinanceDeposit>

export const SettlementDay = Type.Object({
  day: Day,
  status: Type.Union([Type.Literal('running'), Type.Literal('done')]),
  /** Per output type: how many credits and their sum, in the type's coin base units. */
  totals: Type.Array(
    Type.Object({ type: OutputType, coin: Coin, decimals: Type.Integer(), count: Type.Integer(), amount: BaseUnits }),
  ),
  expired: Type.Object({ stakes: Type.Integer(), finance: Type.Integer() }),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})
export type SettlementDay = Static<typeof SettlementDay>

export const SolvencyRow = Type.Object({
  coin: Coin,
  decimals: Type.Integer(),
  liabilities: BaseUnits,
  treasury: BaseUnits,
  hot_wallet: BaseUnits,
  holdings: BaseUnits,
  covered: Type.Boolean(),
})

/** Proof of liabilities (docs/proof-of-liabilities.md): a node of the Merkle sum tree, hash and per-asset sums. */
export const LiabilityNode = Type.Object({
  hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, lowercase hex' }),
  sums: Type.Array(BaseUnits, { description: "Per asset, in the snapshot's asset order" }),
})
export type LiabilityNode = Static<typeof LiabilityNode>
export const LiabilityAsset = Type.Object({ coin: Coin, decimals: Type.Integer() })
export const LiabilityRoot = Type.Object({
  snapshot_id: Id,
  taken_at: Type.String({ format: 'date-time' }),
  slot: Type.Integer({ description: 'The chain slot the reserves were read at' }),
  assets: Type.Array(LiabilityAsset),
  root: LiabilityNode,
  signature: Type.Union([Type.String(), Type.Null()], {
    description: 'The SPL Memo transaction that published the root (null until it is confirmed)',
  }),
  reserves: Type.Array(Type.Object({ coin: Coin, treasury: BaseUnits, hot_wallet: BaseUnits, holdings: BaseUnits })),
})
export type LiabilityRoot = Static<typeof LiabilityRoot>
export const LiabilityProof = Type.Object({
  snapshot_id: Id,
  taken_at: Type.String({ format: 'date-time' }),
  slot: Type.Integer(),
  assets: Type.Array(LiabilityAsset),
  salt: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  amounts: Type.Array(BaseUnits),
  leaf_index: Type.Integer({ minimum: 0 }),
  siblings: Type.Array(LiabilityNode, { description: 'Leaf level first' }),
  root: LiabilityNode,
  signature: Type.Union([Type.String(), Type.Null()]),
})
export type LiabilityProof = Static<typeof LiabilityProof>

/** A direct member on the team page: figures in USDT base units (performance: staked value; power). */
export const TeamMember = Type.Object({
  id: Id,
  address: Type.String(),
  joined_at: Type.String({ format: 'date-time' }),
  /** The member's own staked value. */
  performance: BaseUnits,
  team_performance: BaseUnits,
  personal_power: BaseUnits,
  team_power: BaseUnits,
  /** Members in the member's whole downline. */
  team_count: Type.Integer(),
  direct_count: Type.Integer(),
})
export type TeamMember = Static<typeof TeamMember>

/** The ranking's tabs; spec clients send them as a number too (1 direct, 2 team). */
export const RANK_TYPES = ['direct', 'team'] as const
export const RankType = Type.Union([Type.Literal('direct'), Type.Literal('team')])
export type RankType = Static<typeof RankType>
export const RankRow = Type.Object({
  rank: Type.Integer({ minimum: 1 }),
  address: Type.String({ description: 'Shortened: first 4 … last 4 characters' }),
  /** New power this month, USDT base units. */
  power: BaseUnits,
})
export type RankRow = Static<typeof RankRow>

/** Quick trade ({product}/USDT order book over internal balances, DESIGN.md §3). */
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

export const api = {
  isReg: route({
    path: '/user/login/is_reg',
    auth: false,
    tag: 'auth',
    summary: 'Whether a wallet address is registered (bound to a referrer)',
    body: Type.Object({ address: Address }, { additionalProperties: false }),
    data: Type.Object({ is_reg: Type.Union([Type.Literal(0), Type.Literal(1)]) }),
  }),
  nonce: route({
    path: '/user/login/nonce',
    auth: false,
    tag: 'auth',
    summary: 'A single-use Sign-In-With-Solana message for the address to sign (expires in 5 minutes)',
    body: Type.Object({ address: Address }, { additionalProperties: false }),
    data: Type.Object({
      message: Type.String({ description: 'The exact text to sign' }),
      nonce: Type.String(),
      expires_at: Type.String({ format: 'date-time' }),
    }),
  }),
  registerThird: route({
    path: '/user/login/registerThird',
    auth: false,
    tag: 'auth',
    summary: 'Log in with a signed sign-in message; binds to the inviter on first login',
    body: Type.Object(
      {
        type: Type.Literal('3'),
        address: Address,
        sign: Text({ minLength: 1, maxLength: 256, description: 'Hex of the ed25519 signature of message' }),
        invite_code: Type.Optional(Text({ maxLength: 64, description: "The inviter's wallet address" })),
        message: MultilineText({
          minLength: 1,
          maxLength: 2048,
          description: 'The text returned by /user/login/nonce',
        }),
      },
      { additionalProperties: false },
    ),
    data: LoginData,
  }),
  userIndex: route({
    path: '/user/user/index',
    auth: true,
    tag: 'user',
    summary: "The logged-in user's info",
    body: Empty,
    data: User,
  }),
  userWallet: route({
    path: '/user/user/wallet',
    auth: true,
    tag: 'assets',
    summary:
      "The user's assets with balances and their USDT value; items with is_user_recharge 1 form the allowed-recharge " +
      'list',
    body: Empty,
    data: Type.Object({ list: Type.Array(AssetBalance) }),
  }),
  moneyLog: route({
    path: '/user/user/moneyLog',
    auth: true,
    tag: 'assets',
    summary: "The user's ledger entries, newest first, filtered by coin and type",
    body: Type.Object(
      { ...Page, coin: Type.Optional(Coin), type: Type.Optional(LedgerType) },
      { additionalProperties: false },
    ),
    data: Type.Object({
      list: Type.Array(LedgerEntry),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
    }),
  }),
  intentCreate: route({
    path: '/assets/intent/create',
    idempotent: true,
    auth: true,
    tag: 'assets',
    summary:
      'Create a payment intent: what to pay on chain, to whom, with which reference key. recharge: coin and amount; ' +
      'stake: amount of {product} and days (a configured period); node: level (the amount is its USDT price)',
    body: Type.Object(
      {
        purpose: IntentPurpose,
        coin: Type.Optional(Coin),
        amount: Type.Optional(PositiveBaseUnits),
        days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
        level: Type.Optional(Text({ minLength: 1, maxLength: 32 })),
      },
      { additionalProperties: false },
    ),
    data: PaymentIntent,
  }),
  intentSubmit: route({
    path: '/assets/intent/submit',
    idempotent: true,
    auth: true,
    tag: 'assets',
    summary: 'Report the transaction that paid an intent; it is verified on chain and credited exactly once',
    body: Type.Object({ id: Id, signature: Text({ minLength: 64, maxLength: 100 }) }, { additionalProperties: false }),
    data: PaymentIntent,
  }),
  faucet: route({
    path: '/assets/faucet',
    idempotent: true,
    auth: true,
    tag: 'assets',
    summary: 'Local chain only: send SOL, PLG and USDT to the wallet to try the product',
    body: Empty,
    data: Type.Object({ signatures: Type.Array(Type.String()) }),
  }),
  withdraw: route({
    path: '/user/Withdraw/atm',
    idempotent: true,
    auth: true,
    tag: 'assets',
    summary:
      'Withdraw to your wallet: amount (fee included) moves from available to locked; large amounts wait for review',
    body: Type.Object({ coin: Coin, amount: PositiveBaseUnits }, { additionalProperties: false }),
    data: Withdrawal,
  }),
  withdrawList: route({
    path: '/user/Withdraw/lists',
    auth: true,
    tag: 'assets',
    summary: "The user's withdrawals with their status, newest first",
    body: Type.Object({ ...Page, coin: Type.Optional(Coin) }, { additionalProperties: false }),
    data: Type.Object({
      list: Type.Array(Withdrawal),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
    }),
  }),
  pledgeConfig: route({
    path: '/invest/invest_pledge/:product',
    auth: false,
    tag: 'pledge',
    summary: 'Staking configuration of {product} (e.g. /invest/invest_pledge/PLG): price, minimum and periods',
    body: Empty,
    data: PledgeConfig,
  }),
  pledgeStake: route({
    path: '/invest/invest_pledge/stake',
    idempotent: true,
    auth: true,
    tag: 'pledge',
    summary:
      'Stake {product} from the asset balance for a configured period (on chain: a payment intent, purpose stake)',
    body: Type.Object(
      { amount: PositiveBaseUnits, days: Type.Integer({ minimum: 1, maximum: 3650 }) },
      {
        additionalProperties: false,
      },
    ),
    data: Stake,
  }),
  minerList: route({
    path: '/invest/invest_pledge/getMinerList',
    auth: true,
    tag: 'pledge',
    summary: "The user's stakes of a status (mining or expired), newest first",
    body: Type.Object(
      { status: NumberedEnum(STAKE_STATUSES, 'The status'), ...OptionalPage },
      { additionalProperties: false },
    ),
    data: PagedOf(Stake),
  }),
  minerDetail: route({
    path: '/invest/invest_pledge/MinerDetail',
    auth: true,
    tag: 'pledge',
    summary: "One of the user's stakes with its output records, newest first (parent_id: the stake id, as id)",
    body: Type.Object({ id: Id, ...OptionalPage, parent_id: Type.Optional(Id) }, { additionalProperties: false }),
    data: Type.Object({ detail: Stake, records: PagedOf(OutputRecord) }),
  }),
  fuel: route({
    path: '/invest/invest_pledge/fuel',
    auth: true,
    tag: 'pledge',
    summary:
      "Fuel bars: the platform-wide total and the user's small-market fuel (team power minus the largest direct leg) " +
      'against the tiers, in whole USDT of power',
    body: Empty,
    data: Type.Object({
      tiers: Type.Array(Type.Integer()),
      total_fuel: BaseUnits,
      my_fuel: BaseUnits,
      team_power: BaseUnits,
      largest_leg: BaseUnits,
      /** How many tiers my_fuel has reached (0 … tiers.length). */
      reached: Type.Integer(),
      next_tier: Type.Union([Type.Integer(), Type.Null()]),
    }),
  }),
  today: route({
    path: '/invest/invest_pledge/today',
    auth: true,
    tag: 'pledge',
    summary: "Today's figures: the user's output of the last settled day, power, direct new and recommended power",
    body: Empty,
    data: Type.Object({
      day: Day,
      /** The newest settled day (null before the first settlement) and the user's credits of it, per coin. */
      settled_day: Type.Union([Day, Type.Null()]),
      output: Type.Array(Type.Object({ coin: Coin, decimals: Type.Integer(), amount: BaseUnits })),
      personal_power: BaseUnits,
      team_power: BaseUnits,
      /** New power of direct members today. */
      direct_new_power: BaseUnits,
      /** New power of the whole downline today (today's recommended power). */
      recommended_power: BaseUnits,
    }),
  }),
  nodeLevel: route({
    path: '/invest/invest_pledge/node_level',
    auth: false,
    tag: 'node',
    summary: 'Node levels with price, supply cap, sold count and benefits',
    body: Empty,
    data: Type.Object({ list: Type.Array(NodeLevelInfo) }),
  }),
  nodeBuy: route({
    path: '/invest/invest_pledge/node',
    idempotent: true,
    auth: true,
    tag: 'node',
    summary: 'Buy a node of a level, paid in USDT from the asset balance (on chain: a payment intent, purpose node)',
    body: Type.Object(
      { level: Text({ minLength: 1, maxLength: 32 }), pay: Type.Literal('balance') },
      { additionalProperties: false },
    ),
    data: UserNode,
  }),
  myNodes: route({
    path: '/invest/invest_pledge/myNode',
    auth: true,
    tag: 'node',
    summary: "The user's nodes and their dividends",
    body: Empty,
    data: Type.Object({ list: Type.Array(UserNode) }),
  }),
  financeProducts: route({
    path: '/invest/finance/products',
    auth: false,
    tag: 'finance',
    summary: 'Finance products: periods of 7, 30, 90 and 180 days with their power multiple and output',
    body: Empty,
    data: Type.Object({ coin: Coin, decimals: Type.Integer(), list: Type.Array(FinanceProduct) }),
  }),
  financeDeposit: route({
    path: '/invest/finance/deposit',
    idempotent: true,
    auth: true,
    tag: 'finance',
    summary: 'Deposit from the asset balance into a finance product for its period',
    body: Type.Object(
      { days: Type.Integer({ minimum: 1, maximum: 3650 }), amount: PositiveBaseUnits },
      {
        additionalProperties: false,
      },
    ),
    data: FinanceDeposit,
  }),
  financeList: route({
    path: '/invest/finance/lists',
    auth: true,
    tag: 'finance',
    summary: "The user's finance deposits of a status (active or expired), newest first",
    body: Type.Object({ status: FinanceStatus, ...OptionalPage }, { additionalProperties: false }),
    data: PagedOf(FinanceDeposit),
  }),
  financeDetail: route({
    path: '/invest/finance/detail',
    auth: true,
    tag: 'finance',
    summary: "One of the user's finance deposits with its output records, newest first",
    body: Type.Object({ id: Id, ...OptionalPage }, { additionalProperties: false }),
    data: Type.Object({ detail: FinanceDeposit, records: PagedOf(OutputRecord) }),
  }),
  financeRedeem: route({
    path: '/invest/finance/redeem',
    idempotent: true,
    auth: true,
    tag: 'finance',
    summary: 'Redeem a matured (expired) deposit to the asset balance; refused before maturity',
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: FinanceDeposit,
  }),
  settlementRun: route({
    path: '/admin/settlement/run',
    auth: false,
    operator: true,
    tag: 'operator',
    summary:
      'Run the daily settlement through a day: every day not yet settled up to it, in order (Operator-Token header)',
    body: Type.Object({ day: Day }, { additionalProperties: false }),
    data: Type.Object({ list: Type.Array(SettlementDay) }),
  }),
  liabilitiesSnapshot: route({
    path: '/admin/liabilities/snapshot',
    idempotent: true,
    auth: false,
    operator: true,
    tag: 'operator',
    summary:
      'Take a proof-of-liabilities snapshot now and publish its root on chain (Operator-Token header; ' +
      'npm run snapshot-liabilities)',
    body: Empty,
    data: LiabilityRoot,
  }),
  solvency: route({
    path: '/assets/solvency',
    auth: false,
    tag: 'assets',
    summary: 'Per asset: what users are owed against what the platform holds on chain, with the time of reading',
    body: Empty,
    data: Type.Object({ read_at: Type.String({ format: 'date-time' }), list: Type.Array(SolvencyRow) }),
  }),
  liabilitiesRoot: route({
    path: '/assets/liabilities/root',
    auth: false,
    tag: 'assets',
    summary:
      'The latest proof-of-liabilities snapshot: its Merkle sum tree root, the memo transaction that published it and the reserves at its slot (null before the first snapshot)',
    body: Empty,
    data: Type.Union([LiabilityRoot, Type.Null()]),
  }),
  liabilitiesProof: route({
    path: '/assets/liabilities/proof',
    auth: true,
    tag: 'assets',
    summary:
      "The signed-in user's inclusion proof in a snapshot (the latest by default): salt, amounts, leaf index and the sibling path to the root",
    body: Type.Object({ snapshot_id: Type.Optional(Id) }, { additionalProperties: false }),
    data: LiabilityProof,
  }),
  noticeList: route({
    path: '/news/news/index',
    auth: false,
    tag: 'notice',
    summary:
      "Published notices, newest first, each in the request's accept-language (en when that translation is " +
      'missing); event: the notice the operator flagged to open as a dialog, or null',
    body: Type.Object(Page, { additionalProperties: false }),
    data: Type.Object({
      list: Type.Array(
        Type.Object({
          id: Id,
          title: Type.String(),
          lang: Type.String({ description: 'The language of this translation: the requested one, or en' }),
          is_event: Type.Boolean(),
          published_at: Type.String({ format: 'date-time' }),
        }),
      ),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
      event: Type.Union([Type.Object({ id: Id, title: Type.String() }), Type.Null()]),
    }),
  }),
  noticeInfo: route({
    path: '/news/news/info',
    auth: false,
    tag: 'notice',
    summary: "One published notice with its rich-text body, in the request's accept-language (en when missing)",
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: Type.Object({
      id: Id,
      title: Type.String(),
      body: Type.String({
        description: 'Rich text: a restricted HTML subset (p, br, h2-h4, strong, em, u, s, ul, ol, li, a, img, …)',
      }),
      lang: Type.String({ description: 'The language of the title: the requested one, or en' }),
      body_lang: Type.String({
        description: "The language of the body: the title's, or en when that translation's body is empty",
      }),
      is_event: Type.Boolean(),
      published_at: Type.String({ format: 'date-time' }),
    }),
  }),
  bannerList: route({
    path: '/home/banner/index',
    auth: false,
    tag: 'notice',
    summary:
      "Banners of a type (1: the home carousel) in display order, in the request's accept-language (en when missing)",
    body: Type.Object({ ...Page, type: Type.Integer({ minimum: 1, maximum: 1000 }) }, { additionalProperties: false }),
    data: Type.Object({
      list: Type.Array(
        Type.Object({
          id: Id,
          title: Type.String({ description: 'Caption and image alternative text' }),
          image_url: Type.String({ description: 'A path of this site or an https URL' }),
          link: Type.Union([Type.String(), Type.Null()], { description: 'A path of the app or an https URL' }),
          sort: Type.Integer(),
          lang: Type.String(),
        }),
      ),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
    }),
  }),
  teamIndex: route({
    path: '/user/team/index',
    auth: true,
    tag: 'team',
    summary:
      "The user's team figures, maintained as the tree changes: team and direct counts, team, personal and push " +
      'performance, team and personal power, small-market fuel (team power minus the largest direct leg)',
    body: Empty,
    data: Type.Object({
      /** USDT decimals: performance and power are USDT base units. */
      decimals: Type.Integer(),
      team_count: Type.Integer(),
      direct_count: Type.Integer(),
      team_performance: BaseUnits,
      personal_performance: BaseUnits,
      /** Sum of the direct members' own performance. */
      push_performance: BaseUnits,
      team_power: BaseUnits,
      personal_power: BaseUnits,
      /** A direct member's leg: their personal power plus their team power; the largest of them. */
      largest_leg: BaseUnits,
      small_market_fuel: BaseUnits,
      /** The user's invite code: their wallet address (invite link /?code=<address>). */
      invite_code: Type.String(),
    }),
  }),
  teamList: route({
    path: '/user/team/lists',
    auth: true,
    tag: 'team',
    summary: "The user's direct members, newest first, with their performance and team size",
    body: Type.Object(Page, { additionalProperties: false }),
    data: Type.Object({
      decimals: Type.Integer(),
      list: Type.Array(TeamMember),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
    }),
  }),
  teamDetail: route({
    path: '/user/team/detail',
    auth: true,
    tag: 'team',
    summary: "One of the user's direct members by wallet address; anyone else is refused",
    body: Type.Object({ address: Address }, { additionalProperties: false }),
    data: Type.Object({ decimals: Type.Integer(), member: TeamMember }),
  }),
  ranking: route({
    path: '/invest/Invest_pledge/ranking',
    auth: true,
    tag: 'rank',
    summary:
      'Monthly ranking (UTC month) of new power: direct (of direct members) or team (of the whole downline); the top ' +
      "30 of the latest snapshot, the user's own position and the next update time. Equal power: whoever reached it " +
      'first, then the lower user id',
    body: Type.Object({ type: NumberedEnum(RANK_TYPES, 'The tab') }, { additionalProperties: false }),
    data: Type.Object({
      type: RankType,
      /** The month ranked, YYYY-MM (UTC). */
      month: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$' }),
      decimals: Type.Integer(),
      list: Type.Array(RankRow),
      /** The user's own position: rank null when they have no new power this month. */
      mine: Type.Object({ rank: Type.Union([Type.Integer(), Type.Null()]), power: BaseUnits }),
      computed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      next_update_at: Type.String({ format: 'date-time' }),
    }),
  }),
  homePrice: route({
    path: '/home/index/price',
    auth: false,
    tag: 'home',
    summary:
      'The {product} valuation price in USDT per token (a decimal string) and the trading pair: a time- and ' +
      'volume-weighted average of the recent trades near the reference price (source trade), or the reference ' +
      'price while they are thin (source reference)',
    body: Empty,
    data: Type.Object({
      price: Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description: 'USDT per whole token, e.g. "0.5"' }),
      pair: Type.String({ description: 'e.g. PLG/USDT' }),
      symbol: Type.String(),
      quote: Type.String(),
      source: Type.Union([Type.Literal('reference'), Type.Literal('trade')]),
    }),
  }),
  homeTokens: route({
    path: '/invest/Home/getTokens',
    auth: false,
    tag: 'home',
    summary:
      "The platform's tokens in display order: symbol, mint (null for a token off chain), decimals and icon (a path " +
      'of this site)',
    body: Empty,
    data: Type.Object({
      list: Type.Array(
        Type.Object({
          symbol: Type.String(),
          mint: Type.Union([Type.String(), Type.Null()]),
          decimals: Type.Integer(),
          icon: Type.String({ description: 'e.g. /tokens/usdt.svg' }),
        }),
      ),
    }),
  }),
  homeIndex: route({
    path: '/invest/Home/index',
    auth: true,
    tag: 'home',
    summary:
      "Home figures: price and pair, today's recommended power, direct new power, team power and personal power " +
      '(power in USDT base units)',
    body: Empty,
    data: Type.Object({
      price: Type.String(),
      pair: Type.String(),
      decimals: Type.Integer(),
      day: Day,
      recommended_power: BaseUnits,
      direct_new_power: BaseUnits,
      team_power: BaseUnits,
      personal_power: BaseUnits,
    }),
  }),
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
  // Operator console (issue 7): admin routes go below this line.
  adminNonce: route({
    path: '/admin/auth/nonce',
    auth: false,
    tag: 'admin',
    summary:
      'Operator console sign-in, step 1: a single-use Sign-In-With-Solana message for an allow-listed address (the ' +
      'same flow as the user login, with its own statement); other addresses are refused',
    body: Type.Object({ address: Address }, { additionalProperties: false }),
    data: Type.Object({
      message: Type.String(),
      nonce: Type.String(),
      expires_at: Type.String({ format: 'date-time' }),
    }),
  }),
  adminLogin: route({
    path: '/admin/auth/login',
    auth: false,
    tag: 'admin',
    summary:
      'Operator console sign-in, step 2: the signed message gives an admin session (Admin-Token header) with the ' +
      "address's role; it expires and can be revoked",
    body: Type.Object(
      {
        address: Address,
        sign: Text({ minLength: 1, maxLength: 256, description: 'Hex of the ed25519 signature of message' }),
        message: MultilineText({
          minLength: 1,
          maxLength: 2048,
          description: 'The text returned by /admin/auth/nonce',
        }),
      },
      { additionalProperties: false },
    ),
    data: AdminLoginData,
  }),
  adminMe: route({
    path: '/admin/auth/me',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: "The admin session's address, role and expiry",
    body: Empty,
    data: AdminSession,
  }),
  adminLogout: route({
    path: '/admin/auth/logout',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'Ends the admin session (its token stops working at once)',
    body: Empty,
    data: Type.Object({}),
  }),
  adminAdmins: route({
    path: '/admin/admins/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'The operator allow-list with roles',
    body: Empty,
    data: Type.Object({ list: Type.Array(AdminUser) }),
  }),
  adminAdminSave: route({
    path: '/admin/admins/save',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary:
      'Add an operator or change their role; addresses from ADMIN_ADDRESSES and the caller themselves are refused. ' +
      'Once two admins exist, adding anyone and raising a role wait for a second admin (status pending)',
    body: Type.Object({ address: Address, role: AdminRoleSchema }, { additionalProperties: false }),
    data: AdminChange,
  }),
  adminAdminRemove: route({
    path: '/admin/admins/remove',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary:
      'Remove an operator from the allow-list and end their sessions (not one from ADMIN_ADDRESSES, not oneself). ' +
      'Removing one of the last two admins waits for a second admin (status pending)',
    body: Type.Object({ address: Address }, { additionalProperties: false }),
    data: AdminChange,
  }),
  adminChanges: route({
    path: '/admin/changes/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary:
      'Changes of the allow-list and the asset settings, newest first, optionally of a status (pending: waiting for a ' +
      'second admin)',
    body: Type.Object({ status: Type.Optional(AdminChangeStatus), ...AdminPage }, { additionalProperties: false }),
    data: AdminPaged(AdminChange),
  }),
  adminChangeApprove: route({
    path: '/admin/changes/approve',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary:
      'Apply a pending change as the second admin (not the one who proposed it); refused and marked stale when what ' +
      'it was made from changed meanwhile',
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: AdminChange,
  }),
  adminChangeReject: route({
    path: '/admin/changes/reject',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary: 'Reject a pending change with a reason (the proposer may withdraw their own); nothing changes',
    body: Type.Object({ id: Id, reason: Reason }, { additionalProperties: false }),
    data: AdminChange,
  }),
  adminConfig: route({
    path: '/admin/config/get',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'The business configuration in force: its newest version',
    body: Empty,
    data: ConfigVersion,
  }),
  adminConfigSave: route({
    path: '/admin/config/save',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary:
      'Store a new version of the whole business configuration, in force from the next request. base_version must be ' +
      'the version the form was loaded from (refused when someone saved meanwhile)',
    body: Type.Object({ base_version: Id, value: BusinessConfig }, { additionalProperties: false }),
    data: ConfigVersion,
  }),
  adminConfigHistory: route({
    path: '/admin/config/history',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'Versions of the business configuration, newest first, each with who saved it, when and what changed',
    body: Type.Object(AdminPage, { additionalProperties: false }),
    data: AdminPaged(ConfigVersion),
  }),
  adminAssets: route({
    path: '/admin/assets/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: "Every asset's settings: recharge allowed, withdrawal minimum, fee and the review thresholds",
    body: Empty,
    data: Type.Object({ list: Type.Array(AdminAsset) }),
  }),
  adminAssetSave: route({
    path: '/admin/assets/save',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary:
      "Store a new version of an asset's settings, in force from the next request (base_version: the version loaded). " +
      'Once two admins exist, raising or clearing a review threshold waits for a second admin (status pending)',
    body: Type.Object({ coin: Coin, base_version: Id, ...AssetSettings.properties }, { additionalProperties: false }),
    data: AdminChange,
  }),
  adminAssetHistory: route({
    path: '/admin/assets/history',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: "Versions of the assets' settings, newest first, with who, when and what changed",
    body: Type.Object({ coin: Type.Optional(Coin), ...AdminPage }, { additionalProperties: false }),
    data: AdminPaged(AssetVersion),
  }),
  adminNotices: route({
    path: '/admin/notices/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'All notices (published, unpublished and scheduled), newest publication first, with every translation',
    body: Type.Object(AdminPage, { additionalProperties: false }),
    data: AdminPaged(AdminNotice),
  }),
  adminNoticeSave: route({
    path: '/admin/notices/save',
    auth: false,
    admin: 'operator',
    tag: 'admin',
    summary:
      'Create (no id) or replace a notice: its translations (en required, each language once), publication time, ' +
      'published flag and event flag (setting it takes it from any other notice)',
    body: Type.Object(
      {
        id: Type.Optional(Id),
        translations: Type.Array(NoticeTranslation, { minItems: 1, maxItems: 5 }),
        published_at: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now' })),
        visible: Type.Boolean(),
        is_event: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    data: AdminNotice,
  }),
  adminNoticePublish: route({
    path: '/admin/notices/publish',
    auth: false,
    admin: 'operator',
    tag: 'admin',
    summary: 'Publish (visible true) or unpublish a notice',
    body: Type.Object({ id: Id, visible: Type.Boolean() }, { additionalProperties: false }),
    data: AdminNotice,
  }),
  adminBanners: route({
    path: '/admin/banners/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'All banners of a type (1: home carousel; default all types) in display order, with every translation',
    body: Type.Object(
      { type: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })), ...AdminPage },
      { additionalProperties: false },
    ),
    data: AdminPaged(AdminBanner),
  }),
  adminBannerSave: route({
    path: '/admin/banners/save',
    auth: false,
    admin: 'operator',
    tag: 'admin',
    summary:
      'Create (no id) or replace a banner: type, order, link, published flag and per-language caption and image ' +
      '(en required; an image URL is an uploaded /uploads/… path, another path of the site or an https URL)',
    body: Type.Object(
      {
        id: Type.Optional(Id),
        type: Type.Integer({ minimum: 1, maximum: 1000 }),
        sort: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
        link: Type.Union([SiteUrl, Type.Null()]),
        visible: Type.Boolean(),
        translations: Type.Array(BannerTranslation, { minItems: 1, maxItems: 5 }),
      },
      { additionalProperties: false },
    ),
    data: AdminBanner,
  }),
  adminBannerPublish: route({
    path: '/admin/banners/publish',
    auth: false,
    admin: 'operator',
    tag: 'admin',
    summary: 'Publish (visible true) or unpublish a banner',
    body: Type.Object({ id: Id, visible: Type.Boolean() }, { additionalProperties: false }),
    data: AdminBanner,
  }),
  adminUpload: route({
    path: '/admin/upload/image',
    auth: false,
    admin: 'operator',
    multipart: UPLOAD_FIELD,
    tag: 'admin',
    summary:
      "Upload an image (multipart/form-data, file field 'video'): PNG, JPEG, WebP or GIF by content, at most 2 MB; " +
      'stored under a server-made name and served at the returned url',
    body: Empty,
    data: Upload,
  }),
  adminWithdrawals: route({
    path: '/admin/withdrawals/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary:
      'Withdrawals of a status (review: the queue waiting for a decision, oldest first; others newest first), ' +
      'optionally of one user or asset, with their approvals',
    body: Type.Object(
      { status: WithdrawalStatus, coin: Type.Optional(Coin), address: Type.Optional(Address), ...AdminPage },
      { additionalProperties: false },
    ),
    data: AdminPaged(AdminWithdrawal),
  }),
  adminWithdrawalApprove: route({
    path: '/admin/withdrawals/approve',
    idempotent: true,
    auth: false,
    admin: 'operator',
    tag: 'admin',
    summary:
      'Approve a withdrawal in review: it goes to the sender queue, or, at or above the dual review threshold, waits ' +
      'for the approval of a second, different operator',
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: AdminWithdrawal,
  }),
  adminWithdrawalReject: route({
    path: '/admin/withdrawals/reject',
    idempotent: true,
    auth: false,
    admin: 'operator',
    tag: 'admin',
    summary: "Reject a withdrawal in review with a reason: the amount returns to the user's available balance",
    body: Type.Object({ id: Id, reason: Reason }, { additionalProperties: false }),
    data: AdminWithdrawal,
  }),
  adminUsers: route({
    path: '/admin/users/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'Users, newest first; q: an address prefix (at least 3 characters) or a user id',
    body: Type.Object(
      { q: Type.Optional(Text({ minLength: 1, maxLength: 64 })), ...AdminPage },
      { additionalProperties: false },
    ),
    data: AdminPaged(AdminUserRow),
  }),
  adminUser: route({
    path: '/admin/users/detail',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'A user by wallet address: referral parent, team figures, balances and active sessions',
    body: Type.Object({ address: Address }, { additionalProperties: false }),
    data: AdminUserDetail,
  }),
  adminUserLedger: route({
    path: '/admin/users/ledger',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: "A user's ledger entries, newest first, filtered by coin and type",
    body: Type.Object(
      {
        address: Address,
        coin: Type.Optional(Coin),
        type: Type.Optional(LedgerType),
        ...AdminPage,
      },
      { additionalProperties: false },
    ),
    data: AdminPaged(LedgerEntry),
  }),
  adminUserStakes: route({
    path: '/admin/users/stakes',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: "A user's stakes, newest first (all statuses unless one is given)",
    body: Type.Object(
      { address: Address, status: Type.Optional(StakeStatus), ...AdminPage },
      { additionalProperties: false },
    ),
    data: AdminPaged(Stake),
  }),
  adminUserNodes: route({
    path: '/admin/users/nodes',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: "A user's nodes and their dividends",
    body: Type.Object({ address: Address }, { additionalProperties: false }),
    data: Type.Object({ list: Type.Array(UserNode) }),
  }),
  adminUserFinance: route({
    path: '/admin/users/finance',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: "A user's finance deposits, newest first (all statuses unless one is given)",
    body: Type.Object(
      { address: Address, status: Type.Optional(FinanceStatus), ...AdminPage },
      { additionalProperties: false },
    ),
    data: AdminPaged(FinanceDeposit),
  }),
  adminUserOrders: route({
    path: '/admin/users/orders',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: "A user's quick-trade orders of a status (both sides unless type is given), newest first",
    body: Type.Object(
      { address: Address, status: TradeOrderStatus, type: Type.Optional(TradeSide), ...AdminPage },
      { additionalProperties: false },
    ),
    data: AdminPaged(TradeOrder),
  }),
  adminUserSessions: route({
    path: '/admin/users/sessions',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: "A user's login sessions, newest first",
    body: Type.Object({ address: Address, ...AdminPage }, { additionalProperties: false }),
    data: AdminPaged(UserSession),
  }),
  adminUserRevoke: route({
    path: '/admin/users/revoke',
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary: "Revoke one of a user's sessions (session_id) or all of them: their next call is answered -403",
    body: Type.Object(
      { address: Address, session_id: Type.Optional(Id), reason: Reason },
      { additionalProperties: false },
    ),
    data: Type.Object({ revoked: Type.Integer() }),
  }),
  adminAdjustments: route({
    path: '/admin/adjustments/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'Manual balance adjustments, newest first, optionally of a status or a user',
    body: Type.Object(
      { status: Type.Optional(AdjustmentStatus), address: Type.Optional(Address), ...AdminPage },
      { additionalProperties: false },
    ),
    data: AdminPaged(AdjustmentSchema),
  }),
  adminAdjust: route({
    path: '/admin/adjustments/create',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary:
      "Adjust a user's available balance by a signed amount with a reason: a ledger transfer against the system " +
      "account 'adjustments'. Once two admins exist, every adjustment waits for a second, different admin",
    body: Type.Object(
      {
        address: Address,
        coin: Coin,
        amount: Type.String({ pattern: '^-?[1-9][0-9]{0,37}$', description: 'Signed base units, not 0' }),
        reason: Reason,
      },
      { additionalProperties: false },
    ),
    data: AdjustmentSchema,
  }),
  adminAdjustApprove: route({
    path: '/admin/adjustments/approve',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary: 'Apply a pending adjustment as the second admin (the requester cannot)',
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: AdjustmentSchema,
  }),
  adminAdjustReject: route({
    path: '/admin/adjustments/reject',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary: 'Reject a pending adjustment with a reason; nothing moves',
    body: Type.Object({ id: Id, reason: Reason }, { additionalProperties: false }),
    data: AdjustmentSchema,
  }),
  adminSolvency: route({
    path: '/admin/ops/solvency',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'The solvency report: per asset, what users are owed against what the platform holds on chain',
    body: Empty,
    data: Type.Object({ read_at: Type.String({ format: 'date-time' }), list: Type.Array(SolvencyRow) }),
  }),
  adminPolSnapshot: route({
    path: '/admin/ops/liabilities/snapshot',
    idempotent: true,
    auth: false,
    admin: 'operator',
    tag: 'admin',
    summary:
      'Take a proof-of-liabilities snapshot now and publish its root on chain (one also follows every daily ' +
      'settlement); the signature is null while the memo transaction is not confirmed yet',
    body: Empty,
    data: LiabilityRoot,
  }),
  adminJobs: route({
    path: '/admin/ops/jobs',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'Job status: the last settled day, the deposit watcher lag and the withdrawal sender queue',
    body: Empty,
    data: JobStatus,
  }),
  adminAudit: route({
    path: '/admin/audit/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary:
      'The audit log of admin actions, newest first, filtered by action (exact, or a prefix ending in ".", e.g. ' +
      '"withdrawal."), actor address, target (exact) and time range [from, to)',
    body: Type.Object(
      {
        action: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
        actor: Type.Optional(Address),
        target: Type.Optional(Text({ minLength: 1, maxLength: 200 })),
        from: Type.Optional(Type.String({ format: 'date-time' })),
        to: Type.Optional(Type.String({ format: 'date-time' })),
        ...AdminPage,
      },
      { additionalProperties: false },
    ),
    data: AdminPaged(AuditEntry),
  }),
} as const satisfies Record<string, RouteDef>

export type Api = typeof api

/** Runtime configuration the server hands to the web app (GET /api/config). */
export const ClientConfig = Type.Object({
  cluster: Type.String({ description: 'mainnet-beta, devnet, testnet or localnet' }),
  testnet: Type.Boolean(),
  rpcUrl: Type.String({ description: "The browsers' RPC endpoint (SOLANA_PUBLIC_RPC_URL), never the server's own" }),
  wsUrl: Type.String({ description: "The browsers' WebSocket endpoint (SOLANA_PUBLIC_WS_URL)" }),
  demoWallet: Type.Boolean({ description: 'True on the local chain npm start launched: the demo wallet is injected' }),
  productSymbol: Type.String(),
})
export type ClientConfig = Static<typeof ClientConfig>
