import { Type } from 'typebox'
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
  OpsHistory,
  Reason,
  SiteUrl,
  UPLOAD_FIELD,
  Upload,
  UserSession,
} from './admin.ts'
import { LedgerEntry, LedgerType, LiabilityRoot, SolvencyRow } from './assets.ts'
import { BusinessConfig } from './business-config.ts'
import { AdminCampaign, CampaignQualifier, CampaignTier, CampaignTranslation } from './campaign.ts'
import { Address, Coin, CsvFile, Empty, type RouteDef, route } from './common.ts'
import { CAMPAIGN_MAX_TIERS } from './constants.ts'
import { Id, MultilineText, Text } from './fields.ts'
import { FinanceDeposit, FinanceStatus } from './finance.ts'
import { UserNode } from './node.ts'
import { Stake, StakeStatus } from './pledge.ts'
import { TradeOrder, TradeOrderStatus, TradeSide } from './trade.ts'
import { WithdrawalStatus } from './withdrawals.ts'

// The operator console's routes (docs/admin.md); their schemas are in admin.ts.

/** The filters of the withdrawal list, the same for its CSV file. */
const withdrawalFilters = { status: WithdrawalStatus, coin: Type.Optional(Coin), address: Type.Optional(Address) }
/** The user list's filter, the same for its CSV file. */
const userFilters = { q: Type.Optional(Text({ minLength: 1, maxLength: 64 })) }
/** The audit log's filters, the same for its CSV file. */
const auditFilters = {
  action: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
  actor: Type.Optional(Address),
  target: Type.Optional(Text({ minLength: 1, maxLength: 200 })),
  from: Type.Optional(Type.String({ format: 'date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
}

export const adminRoutes = {
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
      'Changes of the allow-list, the asset settings, the business configuration and releases of held settlement ' +
      'days, newest first, optionally of a status (pending: waiting for a second admin; scheduled: waiting for the end ' +
      'of its notice period)',
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
    summary:
      'Reject a pending change, or cancel a scheduled one, with a reason (the proposer may withdraw their own); nothing ' +
      'changes',
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
      'Store a new version of the whole business configuration (amounts in base units; x-unit names their ' +
      'asset), refused beyond the product bounds (docs/economics.md). base_version must be the version the form was ' +
      'loaded from (refused when someone saved meanwhile). A change that only lowers payouts is in force from the next ' +
      'request; one that raises them waits for a second admin once two exist (pending), then takes effect after the ' +
      'notice period (scheduled, announced to users)',
    body: Type.Object({ base_version: Id, value: BusinessConfig }, { additionalProperties: false }),
    data: AdminChange,
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
      "Store a new version of an asset's settings (amounts in the asset's units: '10' is 10 USDT; base_version: the " +
      'version loaded). Once two admins exist, raising or clearing a review threshold, lowering the minimum or the ' +
      'fee and opening top-ups or withdrawals wait for a second admin (pending); the last three also take effect only ' +
      'after the notice period (scheduled)',
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
    body: Type.Object({ ...withdrawalFilters, ...AdminPage }, { additionalProperties: false }),
    data: AdminPaged(AdminWithdrawal),
  }),
  adminWithdrawalsCsv: route({
    path: '/admin/withdrawals/csv',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: "The withdrawals adminWithdrawals lists, all of them, as a CSV file (amounts in the asset's units)",
    csv: {
      filename: 'solpledge-withdrawals.csv',
      columns: [
        'id',
        'created_at_utc',
        'user_address',
        'asset',
        'amount',
        'fee',
        'receive',
        'address',
        'status',
        'signature',
        'error',
        'approvals',
      ],
    },
    body: Type.Object(withdrawalFilters, { additionalProperties: false }),
    data: CsvFile,
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
    body: Type.Object({ ...userFilters, ...AdminPage }, { additionalProperties: false }),
    data: AdminPaged(AdminUserRow),
  }),
  adminUsersCsv: route({
    path: '/admin/users/csv',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'The users adminUsers lists, all of them, as a CSV file',
    csv: { filename: 'solpledge-users.csv', columns: ['id', 'address', 'parent_address', 'created_at_utc'] },
    body: Type.Object(userFilters, { additionalProperties: false }),
    data: CsvFile,
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
        amount: Type.String({
          pattern: '^-?(0|[1-9][0-9]{0,37})(\\.[0-9]{1,38})?$',
          maxLength: 80,
          description: "Signed amount in the coin's units ('-2.5' debits 2.5 of it), not 0 and not base units",
        }),
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
  adminHistory: route({
    path: '/admin/ops/history',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary:
      'The last 30 UTC days for the operations charts: deposits, withdrawals and payouts per asset and day, users, and ' +
      "the solvency ratio of each day's last proof-of-liabilities snapshot",
    body: Empty,
    data: OpsHistory,
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
  adminSettlementRelease: route({
    path: '/admin/settlement/release',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary:
      'Release a settlement day the circuit breaker holds, so that it is paid and the days after it follow ' +
      '(docs/settlement.md). Once two admins exist the release waits for a second admin (status pending)',
    body: Type.Object({ day: Type.String({ format: 'date' }) }, { additionalProperties: false }),
    data: AdminChange,
  }),
  adminAudit: route({
    path: '/admin/audit/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary:
      'The audit log of admin actions, newest first, filtered by action (exact, or a prefix ending in ".", e.g. ' +
      '"withdrawal."), actor address, target (exact) and time range [from, to)',
    body: Type.Object({ ...auditFilters, ...AdminPage }, { additionalProperties: false }),
    data: AdminPaged(AuditEntry),
  }),
  adminAuditCsv: route({
    path: '/admin/audit/csv',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'The audit entries adminAudit lists, all of them, as a CSV file',
    csv: {
      filename: 'solpledge-audit.csv',
      columns: ['id', 'at_utc', 'actor', 'role', 'action', 'target', 'details', 'ip'],
    },
    body: Type.Object(auditFilters, { additionalProperties: false }),
    data: CsvFile,
  }),
  adminCampaigns: route({
    path: '/admin/campaigns/list',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'Campaigns, newest start first, with every translation and their tiers',
    body: Type.Object(AdminPage, { additionalProperties: false }),
    data: AdminPaged(AdminCampaign),
  }),
  adminCampaignSave: route({
    path: '/admin/campaigns/save',
    auth: false,
    admin: 'operator',
    tag: 'admin',
    summary:
      'Create (no id) or replace a campaign before it starts: its translations (en required, each language once), ' +
      'start and end, and its tiers (ascending; a node reward names a configured node level)',
    body: Type.Object(
      {
        id: Type.Optional(Id),
        translations: Type.Array(CampaignTranslation, { minItems: 1, maxItems: 5 }),
        starts_at: Type.String({ format: 'date-time' }),
        ends_at: Type.String({ format: 'date-time' }),
        tiers: Type.Array(CampaignTier, { minItems: 1, maxItems: CAMPAIGN_MAX_TIERS }),
      },
      { additionalProperties: false },
    ),
    data: AdminCampaign,
  }),
  adminCampaignQualifiers: route({
    path: '/admin/campaigns/qualifiers',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary:
      "A campaign's qualifiers: the users who reach a tier, highest tier then most fuel first, with their figures " +
      '(live while it runs, fixed once it ended) and the adjustment of their node reward',
    body: Type.Object({ id: Id, ...AdminPage }, { additionalProperties: false }),
    data: AdminPaged(CampaignQualifier),
  }),
  adminCampaignQualifiersCsv: route({
    path: '/admin/campaigns/qualifiers/csv',
    auth: false,
    admin: 'viewer',
    tag: 'admin',
    summary: 'The qualifiers adminCampaignQualifiers lists, all of them, as a CSV file (fuel in USDT of power)',
    csv: {
      filename: 'solpledge-campaign-qualifiers.csv',
      columns: ['user_id', 'address', 'direct_referrals', 'small_market_fuel', 'tier', 'reward', 'adjustment_status'],
    },
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: CsvFile,
  }),
  adminCampaignGrant: route({
    path: '/admin/campaigns/grant',
    idempotent: true,
    auth: false,
    admin: 'admin',
    tag: 'admin',
    summary:
      'Propose the node rewards of an ended campaign: one adjustment per qualifier whose tier gives a node and who ' +
      'has none yet (a second, different admin approves each once two admins exist). Repeating it proposes nothing twice',
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: Type.Object({
      /** Adjustments proposed by this call. */
      proposed: Type.Integer(),
      /** Of them, applied at once (one admin). */
      applied: Type.Integer(),
      /** Qualifiers with a node reward that already had their adjustment. */
      existing: Type.Integer(),
    }),
  }),
} as const satisfies Record<string, RouteDef>
export type AdminApi = typeof adminRoutes
