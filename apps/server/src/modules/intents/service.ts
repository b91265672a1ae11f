import { randomBytes } from 'node:crypto'
import {
  type api,
  type BodyOf,
  Code,
  type IntentPurpose,
  type MessageKey,
  type PaymentIntent,
} from '@solpledge/contract'
import type { Transaction } from 'kysely'
import { findReferencePayments, verifyDeposit } from '../../chain/deposit.ts'
import { ownerTokenAccount } from '../../chain/token.ts'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'
import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import { type Commit, lastWrite, RefusalAfterCommit, transact } from '../../lib/commit.ts'
import { addressOf } from '../../lib/keys.ts'
import type { Platform } from '../../platform.ts'
import { type AssetRow, requireAsset } from '../assets/index.ts'
import { systemAccount, transfer, userAccount } from '../ledger/index.ts'
import { type IntentRow, purposeHandler } from './purposes.ts'

/** How long a payment intent waits for its payment before the watcher expires it. */
export const INTENT_TTL_MS = 30 * 60_000

const outcomeOf = (row: IntentRow) => {
  const [kind, value] = (row.outcome ?? '').split(/:(.*)/s)
  return {
    applied_id: kind === 'applied' ? (value ?? null) : null,
    refusal: kind === 'refused' ? ((value ?? null) as MessageKey | null) : null,
  }
}

/** What an intent's answer shows of its asset: read (the token account from the chain, once) before its transaction. */
interface Payee {
  asset: AssetRow
  recipientTokenAccount: string
}

async function payeeOf(platform: Platform, asset: AssetRow, recipient: string): Promise<Payee> {
  return { asset, recipientTokenAccount: await ownerTokenAccount(platform.chain, recipient, asset.mint as string) }
}

function present({ asset, recipientTokenAccount }: Payee, row: IntentRow): PaymentIntent {
  const purpose = row.purpose as IntentPurpose
  const handler = purposeHandler(purpose)
  return {
    id: row.id,
    purpose,
    coin: row.asset,
    mint: asset.mint as string,
    decimals: asset.decimals,
    amount: row.amount,
    recipient: row.recipient,
    recipient_token_account: recipientTokenAccount,
    reference: row.reference,
    status: row.status as PaymentIntent['status'],
    signature: row.signature,
    days: null,
    level: null,
    ...handler?.present(row.details),
    ...outcomeOf(row),
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  }
}

/** The largest amount an SPL token transfer can carry (u64). */
const MAX_TRANSFER = 2n ** 64n - 1n

export type IntentInput = BodyOf<typeof api.intentCreate>

/**
 * Creates a payment intent with a fresh reference key, paid into the treasury's token account. A top-up (recharge)
 * names its `coin` and `amount`; any other purpose's handler (purposes.ts) checks the body and says what to pay.
 */
export async function createIntent(
  db: Database,
  commit: Commit<PaymentIntent>,
  platform: Platform,
  productSymbol: string,
  userId: string,
  input: IntentInput,
): Promise<PaymentIntent> {
  const need = <T>(value: T | undefined, field: string): T => {
    if (value === undefined) throw invalid('intent.missingField', { field })
    return value
  }
  const chainAsset = async (code: string) => {
    const asset = await requireAsset(db, code)
    if (!asset.mint) throw refuse('assets.rechargeUnsupported')
    return asset
  }
  const sameCoin = (code: string) => {
    if (input.coin !== undefined && input.coin !== code) throw invalid('error.invalidParams', { detail: 'coin' })
  }
  let asset: AssetRow
  let amount: string
  let details: unknown = null
  const handler = purposeHandler(input.purpose)
  if (!handler) {
    const coin = need(input.coin, 'coin')
    amount = need(input.amount, 'amount')
    asset = await requireAsset(db, coin)
    if (!asset.is_user_recharge || !asset.mint) throw refuse('assets.rechargeUnsupported')
  } else {
    const toPay = await handler.create(db, { userId, productSymbol, input, need, sameCoin })
    asset = await chainAsset(toPay.coin)
    amount = toPay.amount
    details = toPay.details
  }
  if (BigInt(amount) > MAX_TRANSFER) throw invalid('error.invalidParams', { detail: 'amount' })
  const payee = await payeeOf(platform, asset, platform.treasury.address)
  return commit(async (trx) => {
    const row = await trx
      .insertInto('payment_intents')
      .values({
        user_id: userId,
        purpose: input.purpose,
        asset: asset.code,
        amount,
        recipient: platform.treasury.address,
        // Any 32 bytes make a valid read-only key: it only has to be unique to find this payment on chain.
        reference: addressOf(randomBytes(32)),
        expires_at: new Date(Date.now() + INTENT_TTL_MS),
        details: details === null ? null : JSON.stringify(details),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    return present(payee, row)
  })
}

async function findOwnIntent(db: Database, userId: string, id: string): Promise<IntentRow> {
  const row = await db
    .selectFrom('payment_intents')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'intent.notFound')
  return row
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505'

/**
 * Marks the intent paid by `signature`, credits the user and applies the intent's purpose (the stake or the node),
 * in one database transaction (`commit`'s), exactly once: the status moves pending → fulfilled only once, a signature
 * pays one intent ever (unique), and the credit's idempotency key is the intent. `then` gives the answer, in the same
 * transaction, with the intent as this transaction left it; `fulfilled` is false (and `row` missing) when another
 * request fulfilled it first.
 */
export async function fulfilIntent<T>(
  commit: Commit<T>,
  intent: IntentRow,
  signature: string,
  then: (trx: Transaction<DB>, fulfilled: boolean, row?: IntentRow) => Promise<T>,
): Promise<T> {
  try {
    return await commit(async (trx) => {
      const updated = await trx
        .updateTable('payment_intents')
        .set({ status: 'fulfilled', signature, fulfilled_at: new Date() })
        .where('id', '=', intent.id)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirst()
      if (!updated) return then(trx, false)
      // The credit is a last write (lib/commit.ts): the system account every deposit debits is held from its
      // statement to the COMMIT only, after the purpose's own writes and the answer; the purpose's payment and
      // ancestry updates, last writes too, follow it (docs/scaling.md "What saturates first").
      const debit = await systemAccount(trx, intent.asset, 'chain')
      const credit = await userAccount(trx, intent.user_id, intent.asset, 'available')
      await lastWrite(trx, () =>
        transfer(trx, {
          debit,
          credit,
          asset: intent.asset,
          amount: BigInt(intent.amount),
          type: 'deposit',
          key: `intent:${intent.id}`,
          reference: `intent:${intent.id}`,
        }),
      )
      const handler = purposeHandler(intent.purpose)
      const outcome = handler && (await handler.fulfil(trx, intent, intent.details))
      if (outcome) await trx.updateTable('payment_intents').set({ outcome }).where('id', '=', intent.id).execute()
      return then(trx, true, outcome ? { ...updated, outcome } : updated)
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('intent.signatureUsed')
    throw error
  }
}

/** Checks on chain that `signature` pays exactly this intent from the user's own wallet. */
async function paysIntent(db: Database, platform: Platform, intent: IntentRow, payer: string, signature: string) {
  const asset = await requireAsset(db, intent.asset)
  return verifyDeposit(platform.chain, {
    signature,
    mint: asset.mint as string,
    recipientOwner: intent.recipient,
    amount: BigInt(intent.amount),
    reference: intent.reference,
    payer,
  })
}

/** The user reports the transaction that paid their intent. Safe to call any number of times, concurrently. */
// Reports of the same payment arriving together (a retrying client, a double tap) share one chain lookup, so a burst
// of reports costs the RPC node one request instead of one each. Only the lookup in flight is kept: a cache, not state.
const verifying = new Map<string, ReturnType<typeof paysIntent>>()
function verifyOnce(key: string, verify: () => ReturnType<typeof paysIntent>): ReturnType<typeof paysIntent> {
  let pending = verifying.get(key)
  if (!pending) {
    pending = verify().finally(() => verifying.delete(key))
    verifying.set(key, pending)
  }
  return pending
}

export async function submitIntent(
  db: Database,
  commit: Commit<PaymentIntent>,
  platform: Platform,
  user: { id: string; address: string },
  input: { id: string; signature: string },
): Promise<PaymentIntent> {
  const intent = await findOwnIntent(db, user.id, input.id)
  const payee = await payeeOf(platform, await requireAsset(db, intent.asset), intent.recipient)
  if (intent.status === 'fulfilled') {
    if (intent.signature !== input.signature) throw refuse('intent.signatureUsed')
    return commit(async () => answer(payee, intent))
  }
  if (intent.status === 'expired') throw refuse('intent.expired')
  const verdict = await verifyOnce(`${intent.id}:${input.signature}`, () =>
    paysIntent(db, platform, intent, user.address, input.signature),
  )
  if (!verdict.ok) throw refuse(verdict.reason === 'not_found' ? 'intent.notConfirmed' : 'intent.paymentMismatch')
  return fulfilIntent(commit, intent, input.signature, async (trx, _fulfilled, row) => {
    const now = row ?? (await findOwnIntent(trx, user.id, input.id))
    if (now.signature !== input.signature) throw refuse('intent.signatureUsed')
    return answer(payee, now)
  })
}

/**
 * The answer about a fulfilled intent, inside the transaction that fulfilled it or found it fulfilled. One whose stake
 * or node was refused answers with that refusal, and the transaction still commits: the payment is in the balance.
 */
function answer(payee: Payee, row: IntentRow): PaymentIntent {
  const { refusal } = outcomeOf(row)
  if (refusal) throw new RefusalAfterCommit(refuse(refusal))
  return present(payee, row)
}

/** The success message of a submitted intent, by purpose. */
export const submitSuccessKey = (intent: PaymentIntent): MessageKey =>
  purposeHandler(intent.purpose)?.successKey ?? 'assets.rechargeSuccess'

/**
 * The watcher's pass: intents paid on chain whose report never arrived are found by their reference key and
 * fulfilled; unpaid intents past their expiry expire. Safe with several instances (fulfilment is conditional).
 */
export async function watchIntents(db: Database, platform: Platform, now = new Date()) {
  const pending = await db
    .selectFrom('payment_intents as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .selectAll('i')
    .select('u.address as payer')
    .where('i.status', '=', 'pending')
    .orderBy('i.id')
    .limit(500)
    .execute()
  let fulfilled = 0
  let expired = 0
  for (const { payer, ...intent } of pending) {
    let paid = false
    for (const signature of await findReferencePayments(platform.chain, intent.reference)) {
      const verdict = await paysIntent(db, platform, intent, payer, signature)
      if (!verdict.ok) continue
      try {
        if (await fulfilIntent(transact(db), intent, signature, async (_trx, done) => done)) fulfilled++
        paid = true
        break
      } catch (error) {
        if (!(error instanceof AppError)) throw error // this signature already paid another intent: try the next
      }
    }
    if (!paid && intent.expires_at <= now) {
      const res = await db
        .updateTable('payment_intents')
        .set({ status: 'expired' })
        .where('id', '=', intent.id)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      expired += Number(res.numUpdatedRows)
    }
  }
  return { checked: pending.length, fulfilled, expired }
}
