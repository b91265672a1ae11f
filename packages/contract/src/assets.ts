import { type Static, type TLiteral, Type } from 'typebox'
import {
  BaseUnits,
  Coin,
  CsvFile,
  Day,
  Empty,
  Flag,
  Page,
  PositiveBaseUnits,
  type RouteDef,
  route,
  SignedBaseUnits,
} from './common.ts'
import { LEDGER_TYPES } from './constants.ts'
import { Id, Text } from './fields.ts'

// Balances, the ledger, payment intents (on-chain payments), the faucet and the platform's solvency.

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

export const assetsRoutes = {
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
  moneyLogCsv: route({
    path: '/user/user/moneyLog/csv',
    auth: true,
    tag: 'assets',
    summary:
      "The user's ledger entries as a CSV file, newest first, filtered as moneyLog: time (UTC), type, asset, the " +
      "account (available or locked), the signed amount and the balance after it in the asset's units, the on-chain " +
      'signature of a deposit or withdrawal, the reference',
    csv: {
      filename: 'solpledge-history.csv',
      columns: ['time_utc', 'type', 'asset', 'account', 'amount', 'balance_after', 'signature', 'reference'],
    },
    body: Type.Object({ coin: Type.Optional(Coin), type: Type.Optional(LedgerType) }, { additionalProperties: false }),
    data: CsvFile,
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
  liabilitiesSnapshot: route({
    path: '/admin/liabilities/snapshot',
    auth: false,
    operator: true,
    tag: 'operator',
    summary:
      'Take a proof-of-liabilities snapshot now and publish its root on chain (Operator-Token header; ' +
      'npm run snapshot-liabilities). Each call takes one: it moves no money, like /admin/settlement/run',
    body: Empty,
    data: LiabilityRoot,
  }),
} as const satisfies Record<string, RouteDef>
