import '../wallet/buffer-global.ts'
import { type BlockhashWithExpiryBlockHeight, type Connection, PublicKey, type Transaction } from '@solana/web3.js'
import type { MessageKey, PaymentIntent } from '@solpledge/contract/client'
import { ApiError } from '../api-client.ts'
import type { Notice } from '../notice.ts'
import { createIntent, type IntentRequest } from './create-intent.ts'
import { PaymentError } from './payment-error.ts'
import { buildPaymentTransaction, paymentAccounts } from './payment-transaction.ts'
import { clearPendingPayment, savePendingPayment } from './pending-payment.ts'
import { reporting } from './reporting.ts'
import { isNotConfirmedYet, submitIntentUntilChecked } from './submit-intent.ts'
import { mintProgram, readTokenAmount, tokenAccountSize } from './token-account.ts'

export type PaymentStep = 'preparing' | 'signing' | 'confirming' | 'crediting'

export interface PaymentContext {
  connection: Connection
  owner: PublicKey
  /** The wallet adapter's sendTransaction: the wallet signs and sends. */
  sendTransaction: (transaction: Transaction, connection: Connection) => Promise<string>
  onStep: (step: PaymentStep) => void
  /** Information on the way (docs/product.md#top-up: whether the recipient token account exists). */
  onInfo: (notice: Notice) => void
}

export interface PaymentRequest {
  intent: IntentRequest
  /** What to say when the wallet holds less than the intent asks (default: the amount exceeds the wallet balance). */
  insufficientKey?: MessageKey
}

/** Lamports the fee of a one-signature transaction needs. */
const FEE_LAMPORTS = 5_000n

/** Runs `task`; any failure becomes a PaymentError with `notice`. */
async function step<T>(notice: Notice, task: () => Promise<T> | T, sent = false): Promise<T> {
  try {
    return await task()
  } catch (cause) {
    if (cause instanceof PaymentError) throw cause
    throw new PaymentError(notice, { cause, sent })
  }
}

/** A server refusal shows the server's msg. */
const serverNotice = (error: unknown, fallback: Notice): Notice =>
  error instanceof ApiError ? { text: error.message } : fallback

/**
 * An on-chain payment (docs/design.md#inflows-payment-intents), the one mechanism of top-ups, stakes and node
 * purchases: the server creates a payment intent; the wallet pays it on chain with a TransferChecked carrying the
 * intent's reference; once confirmed, the signature is reported and the server fulfils the intent (credits the balance,
 * makes the stake or the node). Resolves the fulfilled intent (its `refusal` says when the stake or node could not be
 * made); rejects with a PaymentError saying what to tell the user. `idempotencyKey`: the user action's, for asking for
 * the intent.
 */
export async function runPayment(
  ctx: PaymentContext,
  request: PaymentRequest,
  idempotencyKey?: string,
): Promise<PaymentIntent> {
  const { connection, owner } = ctx
  ctx.onStep('preparing')
  let intent: PaymentIntent
  try {
    intent = await createIntent(request.intent, idempotencyKey)
  } catch (cause) {
    const unanswered = !(cause instanceof ApiError)
    throw new PaymentError(serverNotice(cause, { key: 'error.internal' }), { cause, unanswered })
  }
  const pending = {
    id: intent.id,
    purpose: intent.purpose,
    address: owner.toBase58(),
    signature: null,
    expiresAt: intent.expires_at,
  }
  savePendingPayment(pending)
  const due = BigInt(intent.amount)

  // The mint's own program (classic SPL Token or Token-2022) holds every account and instruction of the payment.
  const tokenProgram = await step({ key: 'wallet.tokenTransferFailed' }, async () =>
    mintProgram(await connection.getAccountInfo(new PublicKey(intent.mint), 'confirmed')),
  )
  const accounts = await step({ key: 'wallet.tokenTransferFailed' }, () => paymentAccounts(intent, owner, tokenProgram))
  const [payer, source, destination] = await step({ key: 'wallet.failedTokenBalance' }, () =>
    connection.getMultipleAccountsInfo([owner, accounts.source, accounts.destination], 'confirmed'),
  )
  if (!source) throw new PaymentError({ key: 'wallet.senderNoTokenAccount' })
  const held = await step({ key: 'wallet.failedTokenBalance' }, () => readTokenAmount(accounts.source, source))
  if (held === null || held < due)
    throw new PaymentError({ key: request.insufficientKey ?? 'assets.exceedsWalletBalance' })

  const createRecipientAccount = !destination
  ctx.onInfo({ key: createRecipientAccount ? 'wallet.recipientAccountCreated' : 'wallet.recipientAccountExists' })
  const rent = createRecipientAccount
    ? BigInt(
        await step({ key: 'wallet.failedBalance' }, () =>
          connection.getMinimumBalanceForRentExemption(tokenAccountSize(tokenProgram)),
        ),
      )
    : 0n
  if (BigInt(payer?.lamports ?? 0) < FEE_LAMPORTS + rent) throw new PaymentError({ key: 'common.insufficientBalance' })

  const [transaction, latest] = await step<[Transaction, BlockhashWithExpiryBlockHeight]>(
    { key: 'wallet.tokenTransferFailed' },
    async () => {
      const latest = await connection.getLatestBlockhash('confirmed')
      const transaction = buildPaymentTransaction(intent, owner, createRecipientAccount, tokenProgram)
      transaction.recentBlockhash = latest.blockhash
      transaction.lastValidBlockHeight = latest.lastValidBlockHeight
      return [transaction, latest]
    },
  )

  ctx.onStep('signing')
  const signature = await step({ key: 'wallet.sendFailed' }, () => ctx.sendTransaction(transaction, connection))
  // From here on this tab reports the payment itself: a resume elsewhere leaves it alone.
  reporting.add(intent.id)
  try {
    savePendingPayment({ ...pending, signature })

    ctx.onStep('confirming')
    const confirmation = await step(
      { key: 'wallet.confirmationFailed' },
      () => connection.confirmTransaction({ signature, ...latest }, 'confirmed'),
      true,
    )
    if (confirmation.value.err) {
      clearPendingPayment(intent.id)
      throw new PaymentError({ key: 'wallet.transactionFailed' }, { cause: confirmation.value.err, sent: true })
    }

    ctx.onStep('crediting')
    try {
      const fulfilled = await submitIntentUntilChecked(intent.id, signature)
      clearPendingPayment(intent.id)
      return fulfilled
    } catch (cause) {
      // Refused for good (e.g. the node sold out before the payment arrived): nothing to report later. Not checked
      // yet or not reachable: it stays pending for a later report (and the server's watcher), and the user is told to
      // wait.
      const refused = cause instanceof ApiError && !isNotConfirmedYet(cause)
      if (refused) clearPendingPayment(intent.id)
      throw new PaymentError(serverNotice(cause, { key: 'intent.notConfirmed' }), { cause, sent: true, refused })
    }
  } finally {
    reporting.delete(intent.id)
  }
}
