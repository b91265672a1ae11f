// The operator console's schemas (docs/admin.md). The routes are in admin-routes.ts;
// every one of them needs an admin session (Admin-Token header) of at least the route's `admin` role, except the
// sign-in calls. Amounts are base units as decimal strings, as everywhere in the API.
import { type Static, Type } from 'typebox'
import { BusinessConfig } from './business-config.ts'
import { Id, MultilineText, TEXT_CHAR, Text } from './fields.ts'
import { LANGUAGES } from './i18n.ts'

/** Operator roles, weakest first: viewer reads; operator also edits content and reviews withdrawals; admin all. */
export const ADMIN_ROLES = ['viewer', 'operator', 'admin'] as const
export type AdminRole = (typeof ADMIN_ROLES)[number]
export const AdminRoleSchema = Type.Union([Type.Literal('viewer'), Type.Literal('operator'), Type.Literal('admin')])

/** True when `role` is `required` or stronger. */
export const roleAtLeast = (role: AdminRole, required: AdminRole): boolean =>
  ADMIN_ROLES.indexOf(role) >= ADMIN_ROLES.indexOf(required)

/** The header that carries the admin session token. */
export const ADMIN_TOKEN_HEADER = 'Admin-Token'
/** The upload helper's multipart field name (docs/product.md#paths-we-added). */
export const UPLOAD_FIELD = 'video'
/** Largest image the console accepts, bytes. */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024
/** Image types the console accepts (checked by their first bytes, not by the name). */
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
/** Where uploaded files are served: GET <UPLOAD_PATH>/<name>. */
export const UPLOAD_PATH = '/uploads'

const Units = Type.String({ pattern: '^(0|[1-9][0-9]{0,37})$', description: 'Amount in base units' })
/**
 * An amount as people type it and read it: a decimal in the asset's own units ('10' is 10 USDT, '0.5' half a token),
 * never base units. The server converts it exactly (no floats) and refuses more decimals than the asset has.
 */
export const UnitAmount = Type.String({
  pattern: '^(0|[1-9][0-9]{0,37})(\\.[0-9]{1,38})?$',
  maxLength: 80,
  description: "Amount in the asset's units, e.g. '10' or '0.5' (not base units)",
})
const NullableUnitAmount = Type.Union([UnitAmount, Type.Null()])
const Time = Type.String({ format: 'date-time' })
/** Every decision that changes money or access states why (stored in the audit log). */
export const Reason = MultilineText({ minLength: 3, maxLength: 500, description: 'Why (kept in the audit log)' })
export const AdminPage = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
}
export const AdminPaged = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ list: Type.Array(item), total: Type.Integer(), page: Type.Integer(), limit: Type.Integer() })

export const AdminSession = Type.Object({
  address: Type.String(),
  role: AdminRoleSchema,
  expires_at: Time,
})
export type AdminSession = Static<typeof AdminSession>
export const AdminLoginData = Type.Object({
  ...AdminSession.properties,
  token: Type.String({ description: 'Admin session token: send it as the Admin-Token header' }),
})
export type AdminLoginData = Static<typeof AdminLoginData>

/**
 * An operator of the allow-list. source: 'config' = listed in ADMIN_ADDRESSES (set again at every start, not
 * editable in the console), 'console' = added by an admin, 'local' = the first sign-in on the local chain.
 */
export const AdminUser = Type.Object({
  address: Type.String(),
  role: AdminRoleSchema,
  source: Type.Union([Type.Literal('config'), Type.Literal('console'), Type.Literal('local')]),
  added_by: Type.String(),
  created_at: Time,
  updated_at: Time,
})
export type AdminUser = Static<typeof AdminUser>

/** One changed leaf between two versions: a JSON path ('pledge.minUsdt', 'finance[1].outputBps') and its values. */
export const ConfigChange = Type.Object({
  path: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
})
export type ConfigChange = Static<typeof ConfigChange>

export const ConfigVersion = Type.Object({
  id: Id,
  changed_by: Type.String({ description: "The admin's wallet address, or 'seed'" }),
  created_at: Time,
  value: BusinessConfig,
  /** What this version changed against the one before it (empty for the first). */
  changes: Type.Array(ConfigChange),
})
export type ConfigVersion = Static<typeof ConfigVersion>

/**
 * An asset's operator settings (the withdrawal, recharge and review rules). Amounts are in the asset's units as people
 * type them ('10' = 10 USDT, UnitAmount), in requests and answers alike; the database keeps base units.
 */
export const AssetSettings = Type.Object({
  /** Users may top up this asset (the recharge-allowed list). */
  is_user_recharge: Type.Boolean(),
  withdraw_enabled: Type.Boolean(),
  /** The smallest withdrawal, fee included. */
  min_withdraw: UnitAmount,
  withdraw_fee: UnitAmount,
  /** Withdrawals of at least this amount wait for review; null: none do. */
  review_threshold: NullableUnitAmount,
  /**
   * Withdrawals in review of at least this amount need the approvals of two different operators; null: every one in
   * review does (the safe default). Either way only while two operators (role operator or admin) exist.
   */
  dual_review_threshold: NullableUnitAmount,
})
export type AssetSettings = Static<typeof AssetSettings>

/**
 * The largest value each amount of the asset settings may take, in whole tokens of the asset (beyond them a value is
 * a typing mistake, not a decision). The fee must also be less than the minimum.
 */
export const ASSET_SETTING_LIMITS = {
  min_withdraw: 1_000_000n,
  withdraw_fee: 10_000n,
  review_threshold: 1_000_000_000n,
  dual_review_threshold: 1_000_000_000n,
} as const satisfies Record<string, bigint>

export const AdminAsset = Type.Object({
  coin: Type.String(),
  symbol: Type.String(),
  decimals: Type.Integer(),
  mint: Type.Union([Type.String(), Type.Null()]),
  ...AssetSettings.properties,
  /** The settings' version: send it back as base_version when saving. */
  version: Id,
  updated_by: Type.String(),
  updated_at: Time,
})
export type AdminAsset = Static<typeof AdminAsset>

export const AssetVersion = Type.Object({
  id: Id,
  coin: Type.String(),
  changed_by: Type.String(),
  created_at: Time,
  value: AssetSettings,
  changes: Type.Array(ConfigChange),
})
export type AssetVersion = Static<typeof AssetVersion>

/** The five languages, as LANGUAGES in i18n.ts. */
export const LANGUAGE_CODES = LANGUAGES
export const LanguageCode = Type.Union([
  Type.Literal('en'),
  Type.Literal('zh'),
  Type.Literal('ja'),
  Type.Literal('ko'),
  Type.Literal('vi'),
])

/** A notice's text in one language. The body is restricted rich text (the same subset the app renders). */
export const NoticeTranslation = Type.Object(
  {
    lang: LanguageCode,
    title: Text({ minLength: 1, maxLength: 200 }),
    body: MultilineText({ maxLength: 100_000 }),
  },
  { additionalProperties: false },
)
export const AdminNotice = Type.Object({
  id: Id,
  slug: Type.Union([Type.String(), Type.Null()]),
  /** The event notice (opened as a dialog on the home screen); at most one notice has it. */
  is_event: Type.Boolean(),
  /** Published: shown to users once published_at has come. */
  visible: Type.Boolean(),
  published_at: Time,
  created_at: Time,
  translations: Type.Array(NoticeTranslation),
})
export type AdminNotice = Static<typeof AdminNotice>

/**
 * A path of this site ('/uploads/….png', '/pledge'; not '//host' or '/\\host', which browsers read as another host) or an
 * https URL, as one line of text.
 */
export const SiteUrl = Type.String({
  pattern: `^(?:/|/${TEXT_CHAR.replace('[^', '[^/\\\\')}${TEXT_CHAR}*|https://${TEXT_CHAR}*)$`,
  maxLength: 2000,
})
export const BannerTranslation = Type.Object(
  {
    lang: LanguageCode,
    title: Text({ minLength: 1, maxLength: 200 }),
    image_url: SiteUrl,
  },
  { additionalProperties: false },
)
export const AdminBanner = Type.Object({
  id: Id,
  slug: Type.Union([Type.String(), Type.Null()]),
  /** Where it shows: 1 the home carousel. */
  type: Type.Integer(),
  sort: Type.Integer(),
  link: Type.Union([SiteUrl, Type.Null()]),
  visible: Type.Boolean(),
  created_at: Time,
  translations: Type.Array(BannerTranslation),
})
export type AdminBanner = Static<typeof AdminBanner>

export const Upload = Type.Object({
  /** The path to use as an image URL: /uploads/<name>. */
  url: Type.String(),
  /** Generated by the server; the client's file name is never used. */
  name: Type.String(),
  content_type: Type.String(),
  size: Type.Integer(),
})
export type Upload = Static<typeof Upload>

export const Approval = Type.Object({ admin: Type.String(), role: AdminRoleSchema, at: Time })

export const AdminWithdrawal = Type.Object({
  id: Id,
  user_id: Id,
  user_address: Type.String(),
  coin: Type.String(),
  decimals: Type.Integer(),
  amount: Units,
  fee: Units,
  receive: Units,
  address: Type.String(),
  status: Type.Union([
    Type.Literal('review'),
    Type.Literal('pending'),
    Type.Literal('sent'),
    Type.Literal('confirmed'),
    Type.Literal('failed'),
    Type.Literal('rejected'),
  ]),
  signature: Type.Union([Type.String(), Type.Null()]),
  /** The reason of a rejection, or the last sending error. */
  error: Type.Union([Type.String(), Type.Null()]),
  /** 2 when the amount reaches the asset's dual_review_threshold, else 1. */
  approvals_needed: Type.Integer(),
  approvals: Type.Array(Approval),
  created_at: Time,
  updated_at: Time,
})
export type AdminWithdrawal = Static<typeof AdminWithdrawal>

export const AdjustmentStatus = Type.Union([Type.Literal('pending'), Type.Literal('applied'), Type.Literal('rejected')])
export const Adjustment = Type.Object({
  id: Id,
  user_id: Id,
  user_address: Type.String(),
  coin: Type.String(),
  decimals: Type.Integer(),
  /** Signed: positive credits the user's available balance, negative debits it. */
  amount: Type.String({ pattern: '^-?[1-9][0-9]{0,37}$' }),
  reason: Type.String(),
  status: AdjustmentStatus,
  /** 2 (the requester and a different admin) whenever two admins exist when it is requested, else 1. */
  approvals_needed: Type.Integer(),
  requested_by: Type.String(),
  /** The second admin who applied or rejected it; null while pending or when one admin sufficed. */
  decided_by: Type.Union([Type.String(), Type.Null()]),
  decision_reason: Type.Union([Type.String(), Type.Null()]),
  /** The ledger transfer that applied it. */
  transfer_id: Type.Union([Id, Type.Null()]),
  /**
   * A campaign's node reward (docs/admin.md#campaigns): the node level the amount (its price, in USDT) buys for the
   * user when it is applied, and the campaign; null for a plain balance adjustment.
   */
  node_level: Type.Union([Type.String(), Type.Null()]),
  campaign_id: Type.Union([Id, Type.Null()]),
  created_at: Time,
  decided_at: Type.Union([Time, Type.Null()]),
})
export type Adjustment = Static<typeof Adjustment>

/**
 * A change of the allow-list or of an asset's settings (four eyes, docs/admin.md). Once two admins exist, a change
 * that weakens the rules (adding an operator, raising a role, removing or demoting the second-to-last admin, raising
 * or clearing a review threshold) waits as 'pending' until a different admin approves it; any other is applied at
 * once. 'stale': what it was made from changed before the approval, so nothing was applied.
 */
export const AdminChangeKind = Type.Union([
  Type.Literal('asset.save'),
  Type.Literal('admin.save'),
  Type.Literal('admin.remove'),
  Type.Literal('config.save'),
  Type.Literal('settlement.release'),
])
/**
 * pending: waits for a second admin; scheduled: decided, takes effect at effective_at (the notice period of a change
 * that raises payouts); applied; rejected (while pending) or cancelled (while scheduled): nothing changed; stale: its
 * target changed meanwhile, nothing applied.
 */
export const AdminChangeStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('scheduled'),
  Type.Literal('applied'),
  Type.Literal('rejected'),
  Type.Literal('cancelled'),
  Type.Literal('stale'),
])
export const AdminChange = Type.Object({
  id: Id,
  kind: AdminChangeKind,
  /** 'asset:<coin>', 'admin:<address>', 'config' or 'settlement:<day>'. */
  target: Type.String(),
  /**
   * What it changes: each field before and after ('role', 'review_threshold', 'referralRewards[0].rateBps', …); asset
   * amounts in the asset's units, configuration amounts in base units (their asset: CONFIG_UNITS in economics.ts).
   */
  changes: Type.Array(ConfigChange),
  /**
   * Whether it raises what the platform pays or lowers what it takes (docs/economics.md): then it needs a second
   * admin once two exist, and takes effect only after the notice period, announced to users.
   */
  raises_payouts: Type.Boolean(),
  /** When it takes (or took) effect: null while pending, or for a change that applied at once. */
  effective_at: Type.Union([Time, Type.Null()]),
  status: AdminChangeStatus,
  /** 2 when it waits (or waited) for a second admin, else 1. */
  approvals_needed: Type.Integer(),
  proposed_by: Type.String(),
  /** The second admin who applied or rejected it; null while pending or when one admin sufficed. */
  decided_by: Type.Union([Type.String(), Type.Null()]),
  decision_reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Time,
  decided_at: Type.Union([Time, Type.Null()]),
})
export type AdminChange = Static<typeof AdminChange>

export const AdminUserRow = Type.Object({
  id: Id,
  address: Type.String(),
  parent_address: Type.Union([Type.String(), Type.Null()]),
  created_at: Time,
})

export const AdminUserDetail = Type.Object({
  ...AdminUserRow.properties,
  /** Distance from the root of the referral tree. */
  depth: Type.Integer(),
  /** Team figures, USDT base units (usdt_decimals). */
  team: Type.Object({
    usdt_decimals: Type.Integer(),
    team_count: Type.Integer(),
    direct_count: Type.Integer(),
    performance: Units,
    team_performance: Units,
    personal_power: Units,
    team_power: Units,
  }),
  balances: Type.Array(Type.Object({ coin: Type.String(), decimals: Type.Integer(), available: Units, locked: Units })),
  active_sessions: Type.Integer(),
})
export type AdminUserDetail = Static<typeof AdminUserDetail>

export const UserSession = Type.Object({
  id: Id,
  created_at: Time,
  expires_at: Time,
  revoked_at: Type.Union([Time, Type.Null()]),
  active: Type.Boolean(),
})

export const AuditEntry = Type.Object({
  id: Id,
  at: Time,
  /** The admin's wallet address. */
  actor: Type.String(),
  role: AdminRoleSchema,
  /** What was done, e.g. 'config.save', 'withdrawal.approve', 'user.adjust'. */
  action: Type.String(),
  /** What it was done to, e.g. 'withdrawal:12', 'user:<address>', 'asset:USDT', 'notice:3'. */
  target: Type.Union([Type.String(), Type.Null()]),
  /** Before/after values or the decision's details. */
  details: Type.Unknown(),
  ip: Type.Union([Type.String(), Type.Null()]),
})
export type AuditEntry = Static<typeof AuditEntry>

/**
 * The hot wallet's gauge in one server instance: problem null while the node takes its payouts; otherwise why the last
 * one was refused — kind sol (not enough SOL for fees), token_account (no token account of the asset), token_balance
 * (too few tokens) or other — with what it holds and needs (whole units) and a sentence for the log.
 */
export const HotWalletState = Type.Object({
  address: Type.String(),
  /** Payouts the node refused since the instance started. */
  refused_total: Type.Integer(),
  problem: Type.Union([
    Type.Object({
      kind: Type.Union([
        Type.Literal('sol'),
        Type.Literal('token_account'),
        Type.Literal('token_balance'),
        Type.Literal('other'),
      ]),
      asset: Type.String(),
      held: Type.String(),
      needed: Type.String(),
      detail: Type.String(),
      since: Time,
    }),
    Type.Null(),
  ]),
})
export type HotWalletState = Static<typeof HotWalletState>

/**
 * Why the circuit breaker held a day, per asset: the day's payout (base units) against the trailing 7-day average ×
 * the configured multiple, or against what the platform holds on chain × the configured share.
 */
export const HoldReason = Type.Object({
  coin: Type.String(),
  decimals: Type.Integer(),
  rule: Type.Union([Type.Literal('average'), Type.Literal('reserves')]),
  /** The day's payout in the asset. */
  total: Units,
  /** The trailing average, or the reserves, it was compared with. */
  against: Units,
  /** The multiple of the average, or the share of the reserves, it may reach (basis points). */
  limit_bps: Type.Integer(),
})
export type HoldReason = Static<typeof HoldReason>

export const JobStatus = Type.Object({
  now: Time,
  /** The release the answering instance runs (its build: CHANGELOG.md), shown in the console. */
  release: Type.Object({ version: Type.String(), commit: Type.String(), node: Type.String() }),
  /**
   * Who can give a second approval: active admins (adjustments, weakening changes) and reviewers (operators and admins:
   * withdrawals). With fewer than two, the four-eyes rules cannot apply and one person decides alone.
   */
  four_eyes: Type.Object({ admins: Type.Integer(), reviewers: Type.Integer() }),
  settlement: Type.Object({
    /** The newest settled day, null before the first. */
    last_done_day: Type.Union([Type.String(), Type.Null()]),
    last_finished_at: Type.Union([Time, Type.Null()]),
    /** A day being settled now (or left half done by a crash), null when none. */
    running_day: Type.Union([Type.String(), Type.Null()]),
    /** The newest day that is due by the settlement hour. */
    latest_due_day: Type.String(),
    /** Due days not settled yet. */
    days_behind: Type.Integer(),
    /**
     * A day the circuit breaker holds (docs/settlement.md): its output is recorded but not paid, and the days after it
     * wait, until an admin releases it (two once two admins exist). Null when no day is held.
     */
    held: Type.Union([
      Type.Object({
        day: Type.String(),
        held_at: Time,
        reasons: Type.Array(HoldReason),
        /** A release waiting for a second admin, if any. */
        release_change: Type.Union([Id, Type.Null()]),
      }),
      Type.Null(),
    ]),
  }),
  watcher: Type.Object({
    pending_intents: Type.Integer(),
    oldest_pending_at: Type.Union([Time, Type.Null()]),
    /** Seconds since the watcher last finished a pass without error (null: never in this database). */
    lag_seconds: Type.Union([Type.Integer(), Type.Null()]),
  }),
  sender: Type.Object({
    review: Type.Integer(),
    pending: Type.Integer(),
    sent: Type.Integer(),
    failed: Type.Integer(),
    oldest_open_at: Type.Union([Time, Type.Null()]),
    lag_seconds: Type.Union([Type.Integer(), Type.Null()]),
    /** Whether the hot wallet could pay the last payouts of the instance that answers. */
    hot_wallet: HotWalletState,
  }),
  /** Every periodic job's last pass as recorded by the server instances. */
  jobs: Type.Array(
    Type.Object({
      name: Type.String(),
      last_run_at: Type.Union([Time, Type.Null()]),
      last_ok_at: Type.Union([Time, Type.Null()]),
      last_error: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
})
export type JobStatus = Static<typeof JobStatus>

/**
 * The last 30 UTC days for the console's operations charts, oldest first, from the database: what came in on chain
 * (fulfilled payment intents), what went out (confirmed withdrawals, net of fees), what the settlement paid (daily
 * output, dividends and rewards), users, and the solvency ratio of each day's last proof-of-liabilities snapshot.
 */
export const OpsHistory = Type.Object({
  days: Type.Array(Type.String({ description: 'YYYY-MM-DD' })),
  /** Users registered by the end of each day. */
  users: Type.Array(Type.Integer()),
  assets: Type.Array(
    Type.Object({
      coin: Type.String(),
      decimals: Type.Integer(),
      deposits: Type.Array(Units),
      withdrawals: Type.Array(Units),
      payouts: Type.Array(Units),
      /** Holdings / liabilities of the day's last snapshot, six places (null: no snapshot that day, or nothing owed). */
      solvency: Type.Array(Type.Union([Type.String(), Type.Null()])),
    }),
  ),
})
export type OpsHistory = Static<typeof OpsHistory>
