import '../../../lib/wallet/buffer-global.ts'
import { ACCOUNT_SIZE } from '@solana/spl-token'
import type { BlockhashWithExpiryBlockHeight, Connection, PublicKey, Transaction } from '@solana/web3.js'
import type { PaymentIntent } from '@solpledge/contract'
import { ApiError } from '../../../lib/api-client.ts'
import { createRechargeIntent } from '../api/create-intent.ts'
import { isNotConfirmedYet, submitIntentUntilChecked } from '../api/submit-intent.ts'
import type { Notice } from './notice.ts'
import { clearPendingTopUp, savePendingTopUp } from './pending-top-up.ts'
import { readTokenAmount } from './token-account.ts'
import { buildTopUpTransaction, topUpAccounts } from './top-up-transaction.ts'

export type TopUpStep = 'preparing' | 'signing' | 'confirming' | 'crediting'

/** Ends a top-up with something to tell the user. `sent`: the payment may be on chain, balances should refresh. */
export class TopUpError extends Error {
  readonly notice: Notice
  readonly sent: boolean

  constructor(notice: Notice, { cause, sent = false }: { cause?: unknown; sent?: boolean } = {}) {
    super('key' in notice ? notice.key : notice.text, { cause })
    this.name = 'TopUpError'
    this.notice = notice
    this.sent = sent
  }
}

export interface TopUpContext {
  connection: Connection
  owner: PublicKey
  /** The wallet adapter's sendTransaction: the wallet signs and sends. */
  sendTransaction: (transaction: Transaction, connection: Connection) => Promise<string>
  onStep: (step: TopUpStep) => void
  /** Information on the way (SPEC §8: whether the recipient token account exists). */
  onInfo: (notice: Notice) => void
}

/** Lamports the fee of a one-signature transaction needs. */
const FEE_LAMPORTS = 5_000n

/** Runs `task`; any failure becomes a TopUpError with `notice`. */
async function step<T>(notice: Notice, task: () => Promise<T> | T, sent = false): Promise<T> {
  try {
    return await task()
  } catch (cause) {
    if (cause instanceof TopUpError) throw cause
    throw new TopUpError(notice, { cause, sent })
  }
}

/** A server refusal shows the server's msg. */
const serverNotice = (error: unknown, fallback: Notice): Notice =>
  error instanceof ApiError ? { text: error.message } : fallback

/**
 * A top-up (DESIGN.md §5): the server creates a payment intent; the wallet pays it on chain with a TransferChecked
 * carrying the intent's reference; once confirmed, the signature is reported and the server credits the balance.
 * Resolves the fulfilled intent; rejects with a TopUpError saying what to tell the user.
 */
export async function runTopUp(ctx: TopUpContext, coin: string, amount: bigint): Promise<PaymentIntent> {
  const { connection, owner } = ctx
  ctx.onStep('preparing')
  let intent: PaymentIntent
  try {
    intent = await createRechargeIntent(coin, amount)
  } catch (cause) {
    throw new TopUpError(serverNotice(cause, { key: 'error.internal' }), { cause })
  }
  const pending = { id: intent.id, address: owner.toBase58(), signature: null, expiresAt: intent.expires_at }
  savePendingTopUp(pending)
  const due = BigInt(intent.amount)

  const accounts = await step({ key: 'wallet.tokenTransferFailed' }, () => topUpAccounts(intent, owner))
  const [payer, source, destination] = await step({ key: 'wallet.failedTokenBalance' }, () =>
    connection.getMultipleAccountsInfo([owner, accounts.source, accounts.destination], 'confirmed'),
  )
  if (!source) throw new TopUpError({ key: 'wallet.senderNoTokenAccount' })
  const held = await step({ key: 'wallet.failedTokenBalance' }, () => readTokenAmount(accounts.source, source))
  if (held === null || held < due) throw new TopUpError({ key: 'assets.exceedsWalletBalance' })

  const createRecipientAccount = !destination
  ctx.onInfo({ key: createRecipientAccount ? 'wallet.recipientAccountCreated' : 'wallet.recipientAccountExists' })
  const rent = createRecipientAccount
    ? BigInt(
        await step({ key: 'wallet.failedBalance' }, () => connection.getMinimumBalanceForRentExemption(ACCOUNT_SIZE)),
      )
    : 0n
  if (BigInt(payer?.lamports ?? 0) < FEE_LAMPORTS + rent) throw new TopUpError({ key: 'common.insufficientBalance' })

  const [transaction, latest] = await step<[Transaction, BlockhashWithExpiryBlockHeight]>(
    { key: 'wallet.tokenTransferFailed' },
    async () => {
      const latest = await connection.getLatestBlockhash('confirmed')
      const transaction = buildTopUpTransaction(intent, owner, createRecipientAccount)
      transaction.recentBlockhash = latest.blockhash
      transaction.lastValidBlockHeight = latest.lastValidBlockHeight
      return [transaction, latest]
    },
  )

  ctx.onStep('signing')
  const signature = await step({ key: 'wallet.sendFailed' }, () => ctx.sendTransaction(transaction, connection))
  savePendingTopUp({ ...pending, signature })

  ctx.onStep('confirming')
  const confirmation = await step(
    { key: 'wallet.confirmationFailed' },
    () => connection.confirmTransaction({ signature, ...latest }, 'confirmed'),
    true,
  )
  if (confirmation.value.err) {
    clearPendingTopUp(intent.id)
    throw new TopUpError({ key: 'wallet.transactionFailed' }, { cause: confirmation.value.err, sent: true })
  }

  ctx.onStep('crediting')
  try {
    const credited = await submitIntentUntilChecked(intent.id, signature)
    clearPendingTopUp(intent.id)
    return credited
  } catch (cause) {
    // Refused for good: nothing to report later. Not checked yet or not reachable: it stays pending for a later
    // report (and the server's watcher), and the user is told to wait.
    if (cause instanceof ApiError && !isNotConfirmedYet(cause)) clearPendingTopUp(intent.id)
    throw new TopUpError(serverNotice(cause, { key: 'intent.notConfirmed' }), { cause, sent: true })
  }
}
