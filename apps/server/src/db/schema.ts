import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'

/** int8 and numeric columns come back as decimal strings from both PGlite and PostgreSQL (exact, never floats). */
type Int8 = string
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
/** numeric(38,0) money in base units, as a decimal string: convert with BigInt() and write with String(). */
type Numeric = string

export interface UsersTable {
  id: Generated<Int8>
  address: string
  parent_id: Int8 | null
  created_at: Timestamp
  /** Distance from the root (0 for a root); set from the parent on insert (0009-team), never changed. */
  depth: Generated<number>
  /** Ancestor segment: the parent up to the nearest ancestor at a depth multiple of 32 (0009-team); set on insert. */
  ancestors: Generated<string[]>
}

export interface LoginNoncesTable {
  nonce: string
  /** Null for a message asked for without an address (a wallet's signIn fills it in). */
  address: string | null
  domain: string
  message: string
  expires_at: Timestamp
  used_at: Timestamp | null
}

export interface SessionsTable {
  id: Generated<Int8>
  token_hash: string
  user_id: Int8
  address: string
  created_at: Timestamp
  /** Absolute end. */
  expires_at: Timestamp
  /** When it was last used (at most a few minutes behind): it ends after the idle time without use. */
  last_seen_at: Timestamp
  revoked_at: Timestamp | null
}

export interface ConfigVersionsTable {
  id: Generated<Int8>
  value: ColumnType<unknown, string, string>
  changed_by: string
  created_at: Timestamp
}

export interface AssetsTable {
  code: string
  symbol: string
  decimals: number
  mint: string | null
  is_user_recharge: Generated<boolean>
  withdraw_enabled: Generated<boolean>
  /** Minimum withdrawal, base units. */
  min_atm_money: Generated<Numeric>
  withdraw_fee: Generated<Numeric>
  /** Withdrawals of at least this amount wait for review; null: never. */
  review_threshold: Numeric | null
  /**
   * Withdrawals in review of at least this amount need two different operators' approvals; null: every one in review
   * does (0016-four-eyes). Either way only while two operators exist.
   */
  dual_review_threshold: Numeric | null
  sort: Generated<number>
  created_at: Timestamp
  /** The settings' version (0013-admin): 1 as seeded, one more per change in the console (asset_versions). */
  version: Generated<Int8>
  updated_by: Generated<string>
  updated_at: Timestamp
}

export interface LedgerAccountsTable {
  id: Generated<Int8>
  /** Null for system accounts. */
  user_id: Int8 | null
  asset: string
  /** 'available' | 'locked' for user accounts; any name ('chain', 'fees', 'emission', …) for system accounts. */
  kind: string
  balance: Generated<Numeric>
  created_at: Timestamp
}

export interface LedgerTransfersTable {
  id: Generated<Int8>
  idempotency_key: string
  type: string
  asset: string
  /** The account the amount leaves. */
  debit_account_id: Int8
  /** The account the amount enters. */
  credit_account_id: Int8
  amount: Numeric
  reference: string | null
  created_at: Timestamp
}

export interface PaymentIntentsTable {
  id: Generated<Int8>
  user_id: Int8
  purpose: string
  asset: string
  amount: string
  recipient: string
  reference: string
  status: Generated<string>
  signature: string | null
  expires_at: Timestamp
  created_at: Timestamp
  fulfilled_at: Timestamp | null
  /** What fulfilment does besides the credit: stake {days, price} or node {level}; null for a plain top-up. */
  details: ColumnType<unknown, string | null | undefined, string | null>
  /** After fulfilment: 'applied:<stake or node id>' or 'refused:<message key>' (the payment stays in the balance). */
  outcome: string | null
}

export type WithdrawalStatus = 'review' | 'pending' | 'sent' | 'confirmed' | 'failed' | 'rejected'

export interface WithdrawalsTable {
  id: Generated<Int8>
  user_id: Int8
  asset: string
  /** Gross, fee included: what leaves the user's balance. */
  amount: Numeric
  fee: Numeric
  /** The user's wallet, which receives amount - fee. */
  to_address: string
  status: WithdrawalStatus
  /** The prepared payout, stored before it is sent (docs/money.md). */
  signature: string | null
  wire_transaction: string | null
  last_valid_block_height: Numeric | null
  attempts: Generated<number>
  error: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /** The instance whose sender works on it, until when (docs/money.md "Withdrawals"); only while pending or sent. */
  sender_lease_by: string | null
  sender_lease_until: Timestamp | null
}

export interface UserNodesTable {
  id: Generated<Int8>
  user_id: Int8
  /** The node level's code in the configuration ('junior', 'senior', …). */
  level: string
  /** The price paid, USDT base units (kept when the configuration changes). */
  price_usdt: Numeric
  power_bonus_bps: number
  dividend_weight: number
  /** Node-pool dividends received so far, {product} base units. */
  dividends: Generated<Numeric>
  created_at: Timestamp
}

/** A calendar day in UTC, 'YYYY-MM-DD' (both drivers return date columns as such strings). */
type Day = string

export type StakeStatus = 'mining' | 'expired'

export interface StakesTable {
  id: Generated<Int8>
  user_id: Int8
  asset: string
  amount: Numeric
  /** USDT base units per whole token at entry. */
  price: Numeric
  usdt_value: Numeric
  days: number
  output_bps: number
  power_bps: number
  power: Numeric
  total_output: Numeric
  released: Generated<Numeric>
  start_day: Day
  end_day: Day
  status: Generated<StakeStatus>
  intent_id: Int8 | null
  created_at: Timestamp
  expired_at: Timestamp | null
}

export type FinanceStatus = 'active' | 'expired'

export interface FinanceDepositsTable {
  id: Generated<Int8>
  user_id: Int8
  asset: string
  amount: Numeric
  days: number
  output_bps: number
  power_bps: number
  power: Numeric
  total_output: Numeric
  released: Generated<Numeric>
  start_day: Day
  end_day: Day
  status: Generated<FinanceStatus>
  created_at: Timestamp
  expired_at: Timestamp | null
  redeemed_at: Timestamp | null
}

export type OutputType = 'pledge_output' | 'finance_output' | 'node_dividend' | 'referral_reward'

export interface OutputRecordsTable {
  id: Generated<Int8>
  user_id: Int8
  day: Day
  type: OutputType
  parent_id: Int8
  asset: string
  amount: Numeric
  created_at: Timestamp
}

export interface UserPowerTable {
  user_id: Int8
  personal_power: Generated<Numeric>
  team_power: Generated<Numeric>
  performance: Generated<Numeric>
  team_performance: Generated<Numeric>
  /** Members in the whole downline and direct members, maintained when a user binds (modules/team). */
  team_count: Generated<Int8>
  direct_count: Generated<Int8>
  /** The day the two counters below belong to (migration 0011); on another day they read as zero. */
  new_power_day: Day | null
  /** New power of the whole downline, and of direct members, on new_power_day. */
  team_new_power: Generated<Numeric>
  direct_new_power: Generated<Numeric>
  /**
   * The month (first day) of team_month_performance: the downline's stakes' USDT value in it not yet in team_months
   * (migration 0032); a stake of another month moves it there.
   */
  team_month: Day | null
  team_month_performance: Generated<Numeric>
  /** What the row's last update moved to team_months (null when nothing); read only by that update's RETURNING. */
  closed_month: Day | null
  closed_month_performance: Numeric | null
}

export interface PowerEventsTable {
  id: Generated<Int8>
  user_id: Int8
  day: Day
  source: 'stake' | 'finance' | 'node'
  source_id: Int8
  power: Numeric
  created_at: Timestamp
}

/** Proof-of-liabilities snapshots (migration 0019, modules/liabilities). */
export interface LiabilitySnapshotsTable {
  id: Generated<Int8>
  trigger: string | null
  taken_at: Timestamp
  slot: Int8
  assets: ColumnType<{ coin: string; decimals: number }[], string, string>
  leaf_count: Int8
  chunk_nodes: number
  root_hash: string
  root_sums: ColumnType<string[], string, string>
  reserves: ColumnType<{ coin: string; treasury: string; hot_wallet: string; holdings: string }[], string, string>
  memo: string
  signer: string
  status: Generated<'stored' | 'published'>
  signature: string | null
  wire_transaction: string | null
  last_valid_block_height: Numeric | null
  attempts: Generated<number>
  error: string | null
  published_at: Timestamp | null
  purged_at: Timestamp | null
}

export interface LiabilityLeavesTable {
  snapshot_id: Int8
  leaf_index: Int8
  user_id: Int8
  salt: Uint8Array
  node: Uint8Array
}

export interface LiabilityNodesTable {
  snapshot_id: Int8
  level: number
  chunk: number
  nodes: Uint8Array
}

/** Live updates' outbox (0024-live, modules/live): `seq` is set when the writing transaction commits. */
export interface LiveOutboxTable {
  id: Generated<Int8>
  topic: string
  seq: Int8 | null
  /** jsonb: written as JSON text, read as the value. */
  payload: ColumnType<unknown, string, never>
  created_at: Generated<Timestamp>
  committed_at: Timestamp | null
}

/** The last sequence number of each live topic (0024-live). */
export interface LiveTopicsTable {
  topic: string
  seq: Int8
  /**
   * How many instances listen to the topic (migration 0031-live-numbered): none, and its commits send no NOTIFY, and
   * a user's balance changes write no message (0033-live-unheard).
   */
  listeners: Generated<number>
}

/** Each market's prices of a UTC day, the day's latest (0027-price-days, modules/trade/price.ts). */
export interface PriceDaysTable {
  symbol: string
  day: Day
  /** The valuation price, USDT base units per whole token. */
  valuation: Numeric
  source: 'reference' | 'trade'
  /** The quick trade's last price; null before the market's first trade. */
  last_price: Numeric | null
  recorded_at: Generated<Timestamp>
}

/** A user's team performance of a UTC month, added to with each downline stake (0028-team-months, modules/power). */
export interface TeamMonthsTable {
  user_id: Int8
  /** The month's first day. */
  month: Day
  /** USDT base units. */
  performance: Numeric
}

export interface SettlementRunsTable {
  day: Day
  /** held: the circuit breaker stopped it before its payment, until an admin releases it (0020-economics). */
  status: Generated<'running' | 'held' | 'done'>
  phase: string
  cursor: Generated<Int8>
  summary: ColumnType<unknown, string | null | undefined, string | null>
  started_at: Timestamp
  updated_at: Timestamp
  finished_at: Timestamp | null
}

export interface NoticesTable {
  id: Generated<Int8>
  slug: string | null
  is_event: Generated<boolean>
  visible: Generated<boolean>
  published_at: Timestamp
  created_at: Timestamp
}

export interface NoticeTranslationsTable {
  notice_id: Int8
  lang: string
  title: string
  /** Restricted rich text (HTML subset), rendered through an allow-list by the web app. */
  body: string
}

export interface BannersTable {
  id: Generated<Int8>
  slug: string | null
  type: Generated<number>
  sort: Generated<number>
  link: string | null
  visible: Generated<boolean>
  created_at: Timestamp
}

export interface BannerTranslationsTable {
  banner_id: Int8
  lang: string
  title: string
  image_url: string
}

export type RankType = 'direct' | 'team'

export interface RankSnapshotsTable {
  id: Generated<Int8>
  /** First day of the UTC month ranked. */
  month: Day
  type: RankType
  computed_at: Timestamp
  next_at: Timestamp
  entries: number
}

export interface RankEntriesTable {
  snapshot_id: Int8
  user_id: Int8
  rank: number
  power: Numeric
  reached_at: Timestamp
}

export type AdminRoleColumn = 'viewer' | 'operator' | 'admin'

export interface AdminsTable {
  address: string
  role: AdminRoleColumn
  source: 'config' | 'console' | 'local'
  added_by: string
  created_at: Timestamp
  updated_at: Timestamp
  removed_at: Timestamp | null
}

export interface AdminSessionsTable {
  id: Generated<Int8>
  token_hash: string
  address: string
  ip: string | null
  created_at: Timestamp
  expires_at: Timestamp
  revoked_at: Timestamp | null
}

export interface AdminAuditTable {
  id: Generated<Int8>
  at: Timestamp
  actor: string
  role: AdminRoleColumn
  action: string
  target: string | null
  details: ColumnType<unknown, string, never>
  ip: string | null
}

export interface AssetVersionsTable {
  id: Generated<Int8>
  asset: string
  version: Int8
  before: ColumnType<unknown, string, never>
  value: ColumnType<unknown, string, never>
  changed_by: string
  created_at: Timestamp
}

export interface WithdrawalApprovalsTable {
  withdrawal_id: Int8
  admin: string
  role: AdminRoleColumn
  at: Timestamp
}

export type AdjustmentStatus = 'pending' | 'applied' | 'rejected'

export interface AdjustmentsTable {
  id: Generated<Int8>
  user_id: Int8
  asset: string
  /** Signed base units. */
  amount: Numeric
  reason: string
  status: AdjustmentStatus
  approvals_needed: number
  requested_by: string
  decided_by: string | null
  decision_reason: string | null
  transfer_id: Int8 | null
  /** 0025-campaigns: a campaign's node reward (the amount is the node's price it buys when applied), or null. */
  node_level: string | null
  campaign_id: Int8 | null
  created_at: Timestamp
  decided_at: Timestamp | null
}

/** 0025-campaigns. */
export interface CampaignsTable {
  id: Generated<Int8>
  starts_at: Timestamp
  ends_at: Timestamp
  /** The ordered tiers, as the contract's CampaignTier[]. */
  tiers: ColumnType<unknown, string, string>
  created_by: string
  created_at: Timestamp
  updated_at: Timestamp
  finalized_at: Timestamp | null
}

export interface CampaignTranslationsTable {
  campaign_id: Int8
  lang: string
  title: string
  body: string
}

export interface CampaignResultsTable {
  campaign_id: Int8
  user_id: Int8
  direct_count: number
  fuel: Numeric
  tier: number
}

export type AdminChangeKind = 'asset.save' | 'admin.save' | 'admin.remove' | 'config.save' | 'settlement.release'
export type AdminChangeStatus = 'pending' | 'scheduled' | 'applied' | 'rejected' | 'cancelled' | 'stale'

/** 0016-four-eyes: changes of the allow-list and the asset settings, applied at once or waiting for a second admin. */
export interface AdminChangesTable {
  id: Generated<Int8>
  kind: AdminChangeKind
  /** 'asset:<coin>', 'admin:<address>', 'config' or 'settlement:<day>'. */
  target: string
  payload: unknown
  before: unknown
  status: AdminChangeStatus
  /** 0020-economics: it raises payouts (then it applies at effective_at, the end of its notice period). */
  raises_payouts: Generated<boolean>
  effective_at: Timestamp | null
  approvals_needed: number
  proposed_by: string
  decided_by: string | null
  decision_reason: string | null
  created_at: Timestamp
  decided_at: Timestamp | null
}

export interface JobHeartbeatsTable {
  name: string
  last_run_at: Timestamp
  last_ok_at: Timestamp | null
  last_error: string | null
}

/** A money call's Idempotency-Key (0015-idempotency, lib/idempotency.ts). */
export interface IdempotencyKeysTable {
  caller: string
  key: string
  request_hash: string
  state: 'running' | 'done'
  status: number | null
  response: string | null
  created_at: Timestamp
}

/**
 * Settings fixed at the first start (cluster, mints, treasury and root addresses), by their environment variable's
 * name, and one-time facts of the installation (demo content seeded): compared at every start, never silently changed.
 */
export interface FixedSettingsTable {
  name: string
  value: string
  recorded_at: Timestamp
}

export type TradeSide = 'buy' | 'sell'
export type TradeOrderStatus = 'pending' | 'completed' | 'cancelled'

export interface TradeMarketsTable {
  symbol: string
  /** +1 by every transaction that changes the book (docs/trade.md). */
  seq: Generated<Int8>
  last_price: Numeric | null
  updated_at: Timestamp
}

export interface TradeOrdersTable {
  id: Generated<Int8>
  order_sn: string
  symbol: string
  user_id: Int8
  side: TradeSide
  kind: 'limit' | 'swap'
  /** USDT base units per whole token; null for a swap. */
  price: Numeric | null
  amount: Numeric
  filled: Generated<Numeric>
  /** USDT exchanged by the fills, before fees. */
  quote: Generated<Numeric>
  /** In the asset received: USDT for a sell, {product} for a buy. */
  fee: Generated<Numeric>
  received: Generated<Numeric>
  /** Still held in the user's locked account for this order, in the asset given. */
  locked: Generated<Numeric>
  status: TradeOrderStatus
  client_order_id: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /** The market's seq of the batch that last wrote the order (0037-trade-book-catch-up). */
  seq: Generated<Int8>
}

export interface TradeFillsTable {
  id: Generated<Int8>
  symbol: string
  maker_order_id: Int8
  taker_order_id: Int8
  maker_user_id: Int8
  taker_user_id: Int8
  taker_side: TradeSide
  price: Numeric
  amount: Numeric
  quote: Numeric
  maker_fee: Numeric
  taker_fee: Numeric
  created_at: Timestamp
}

/** Login rate-limit counters shared by the instances (lib/rate-limit.ts); unlogged. */
export interface RateLimitHitsTable {
  key: string
  hits: number
  reset_at: Timestamp
}

export interface DB {
  payment_intents: PaymentIntentsTable
  users: UsersTable
  login_nonces: LoginNoncesTable
  sessions: SessionsTable
  config_versions: ConfigVersionsTable
  assets: AssetsTable
  ledger_accounts: LedgerAccountsTable
  ledger_transfers: LedgerTransfersTable
  withdrawals: WithdrawalsTable
  user_nodes: UserNodesTable
  stakes: StakesTable
  finance_deposits: FinanceDepositsTable
  output_records: OutputRecordsTable
  user_power: UserPowerTable
  power_events: PowerEventsTable
  settlement_runs: SettlementRunsTable
  notices: NoticesTable
  notice_translations: NoticeTranslationsTable
  banners: BannersTable
  banner_translations: BannerTranslationsTable
  rank_snapshots: RankSnapshotsTable
  rank_entries: RankEntriesTable
  admins: AdminsTable
  admin_sessions: AdminSessionsTable
  admin_audit: AdminAuditTable
  asset_versions: AssetVersionsTable
  withdrawal_approvals: WithdrawalApprovalsTable
  adjustments: AdjustmentsTable
  campaigns: CampaignsTable
  campaign_translations: CampaignTranslationsTable
  campaign_results: CampaignResultsTable
  admin_changes: AdminChangesTable
  job_heartbeats: JobHeartbeatsTable
  fixed_settings: FixedSettingsTable
  trade_markets: TradeMarketsTable
  trade_orders: TradeOrdersTable
  trade_fills: TradeFillsTable
  price_days: PriceDaysTable
  team_months: TeamMonthsTable
  idempotency_keys: IdempotencyKeysTable
  liability_snapshots: LiabilitySnapshotsTable
  liability_leaves: LiabilityLeavesTable
  liability_nodes: LiabilityNodesTable
  live_outbox: LiveOutboxTable
  live_topics: LiveTopicsTable
  rate_limit_hits: RateLimitHitsTable
}

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
