import { randomBytes } from 'node:crypto'
import { Code, type PaymentIntent } from '@solpledge/contract'
import type { Selectable } from 'kysely'
import { findReferencePayments, verifyDeposit } from '../../chain/deposit.ts'
import { associatedTokenAddress } from '../../chain/token.ts'
import type { Database } from '../../db/index.ts'
import type { PaymentIntentsTable } from '../../db/schema.ts'
import { AppError, refuse } from '../../lib/app-error.ts'
import { addressOf } from '../../lib/keys.ts'
import type { Platform } from '../../platform.ts'
import { requireAsset } from '../assets/service.ts'
import { systemAccount, transfer, userAccount } from '../ledger/service.ts'

/** How long a payment intent waits for its payment before the watcher expires it. */
export const INTENT_TTL_MS = 30 * 60_000

type IntentRow = Selectable<PaymentIntentsTable>

async function present(db: Database, row: IntentRow): Promise<PaymentIntent> {
  const asset = await requireAsset(db, row.asset)
  const mint = asset.mint as string
  return {
    id: row.id,
    purpose: row.purpose as 'recharge',
    coin: row.asset,
    mint,
    decimals: asset.decimals,
    amount: row.amount,
    recipient: row.recipient,
    recipient_token_account: await associatedTokenAddress(row.recipient, mint),
    reference: row.reference,
    status: row.status as PaymentIntent['status'],
    signature: row.signature,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  }
}

/** Creates a top-up intent: pay `amount` of the asset into the treasury's token account with a fresh reference key. */
export async function createIntent(
  db: Database,
  platform: Platform,
  userId: string,
  input: { purpose: 'recharge'; coin: string; amount: string },
): Promise<PaymentIntent> {
  const asset = await requireAsset(db, input.coin)
  if (!asset.is_user_recharge || !asset.mint) throw refuse('assets.rechargeUnsupported')
  const row = await db
    .insertInto('payment_intents')
    .values({
      user_id: userId,
      purpose: input.purpose,
      asset: asset.code,
      amount: input.amount,
      recipient: platform.treasury.address,
      // Any 32 bytes make a valid read-only key: it only has to be unique to find this payment on chain.
      reference: addressOf(randomBytes(32)),
      expires_at: new Date(Date.now() + INTENT_TTL_MS),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return present(db, row)
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
 * Marks the intent paid by `signature` and credits the user, in one database transaction, exactly once: the status
 * moves pending → fulfilled only once, a signature pays one intent ever (unique), and the credit's idempotency key is
 * the intent. Returns false when another request fulfilled it first with the same signature.
 */
export async function fulfilIntent(db: Database, intent: IntentRow, signature: string): Promise<boolean> {
  try {
    return await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('payment_intents')
        .set({ status: 'fulfilled', signature, fulfilled_at: new Date() })
        .where('id', '=', intent.id)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      if (updated.numUpdatedRows !== 1n) return false
      const from = await systemAccount(trx, intent.asset, 'chain')
      const to = await userAccount(trx, intent.user_id, intent.asset, 'available')
      await transfer(trx, {
        debit: from,
        credit: to,
        asset: intent.asset,
        amount: BigInt(intent.amount),
        type: 'deposit',
        key: `intent:${intent.id}`,
        reference: `intent:${intent.id}`,
      })
      return true
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
export async function submitIntent(
  db: Database,
  platform: Platform,
  user: { id: string; address: string },
  input: { id: string; signature: string },
): Promise<PaymentIntent> {
  const intent = await findOwnIntent(db, user.id, input.id)
  if (intent.status === 'fulfilled') {
    if (intent.signature === input.signature) return present(db, intent)
    throw refuse('intent.signatureUsed')
  }
  if (intent.status === 'expired') throw refuse('intent.expired')
  const verdict = await paysIntent(db, platform, intent, user.address, input.signature)
  if (!verdict.ok) throw refuse(verdict.reason === 'not_found' ? 'intent.notConfirmed' : 'intent.paymentMismatch')
  await fulfilIntent(db, intent, input.signature)
  const now = await findOwnIntent(db, user.id, input.id)
  if (now.signature !== input.signature) throw refuse('intent.signatureUsed')
  return present(db, now)
}

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
        if (await fulfilIntent(db, intent, signature)) fulfilled++
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
