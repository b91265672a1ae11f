import {
  address,
  appendTransactionMessageInstructions,
  type Base64EncodedWireTransaction,
  type Commitment,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  pipe,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  type SolanaError,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signature,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token'
import type { StoredKeypair } from '../lib/keys.ts'
import type { Chain } from './rpc.ts'
import { associatedTokenAddress } from './token.ts'

export interface PayoutRequest {
  hotWallet: StoredKeypair
  mint: string
  decimals: number
  /** The recipient's wallet; its associated token account is created when missing. */
  to: string
  /** Base units. */
  amount: bigint
  /**
   * Written on chain with the SPL Memo program (e.g. `withdraw:12`): it links the transfer to its record and keeps two
   * payouts of the same amount to the same wallet from being the same transaction (same bytes, same signature).
   */
  memo: string
}

/** The SPL Memo program (v2). */
const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr')

export interface PreparedPayout {
  signature: Signature
  wireTransaction: Base64EncodedWireTransaction
  /** The transaction can only land in a block at or below this height. */
  lastValidBlockHeight: bigint
}

/**
 * Builds and signs, without sending, a transaction from the hot wallet: create `to`'s associated token account
 * (idempotent, paid by the hot wallet), then TransferChecked from the hot wallet's associated token account, then
 * the memo.
 * Store the result before calling sendPrepared.
 */
export async function preparePayout(chain: Chain, request: PayoutRequest): Promise<PreparedPayout> {
  const hotWallet = await createKeyPairSignerFromBytes(request.hotWallet.secretKey)
  const mint = address(request.mint)
  const owner = address(request.to)
  const source = await associatedTokenAddress(hotWallet.address, mint)
  const destination = await associatedTokenAddress(owner, mint)
  const { value: blockhash } = await chain.rpc.getLatestBlockhash({ commitment: chain.commitment }).send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(hotWallet, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getCreateAssociatedTokenIdempotentInstruction({ payer: hotWallet, ata: destination, owner, mint }),
          getTransferCheckedInstruction({
            source,
            mint,
            destination,
            authority: hotWallet,
            amount: request.amount,
            decimals: request.decimals,
          }),
          { programAddress: MEMO_PROGRAM, data: new TextEncoder().encode(request.memo) },
        ],
        m,
      ),
  )
  const transaction = await signTransactionMessageWithSigners(message)
  return {
    signature: getSignatureFromTransaction(transaction),
    wireTransaction: getBase64EncodedWireTransaction(transaction),
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
  }
}

type PreflightFailure = SolanaError<typeof SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE>

/**
 * `sent`: the node took the transaction, or had already processed it. `refused`: the node's preflight rejected it
 * (simulation failed, e.g. insufficient funds, or blockhash not found); `error.cause` is the transaction error and
 * `error.context.logs` the simulation logs. Neither says whether the payout landed: only payoutStatus does.
 */
export type SendResult = { sent: true } | { sent: false; error: PreflightFailure }

/**
 * Sends prepared bytes (base64) with preflight; resending the same bytes is harmless (same signature: it lands at most
 * once). Throws on any other failure (network, HTTP, node unhealthy): whether the node got it is then unknown.
 */
export async function sendPrepared(chain: Chain, wireTransaction: string): Promise<SendResult> {
  try {
    await chain.rpc
      .sendTransaction(wireTransaction as Base64EncodedWireTransaction, {
        encoding: 'base64',
        skipPreflight: false,
        preflightCommitment: chain.commitment,
      })
      .send()
    return { sent: true }
  } catch (error) {
    if (!isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) throw error
    if (isSolanaError(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)) return { sent: true }
    return { sent: false, error }
  }
}

export type PayoutStatus = 'confirmed' | 'failed' | 'pending' | 'expired'

const commitmentRank = { processed: 0, confirmed: 1, finalized: 2 } as const

/**
 * Where a prepared payout stands. 'expired' is proof that it can never land: the finalized block height is past its
 * last valid height and no status exists for it — only then may a new transaction replace it.
 */
export async function payoutStatus(
  chain: Chain,
  payoutSignature: string,
  lastValidBlockHeight: bigint,
): Promise<PayoutStatus> {
  // Read the height before the status: a transaction absent after a finalized height past its limit never lands.
  const finalizedHeight = await chain.rpc.getBlockHeight({ commitment: 'finalized' }).send()
  const {
    value: [status],
  } = await chain.rpc.getSignatureStatuses([signature(payoutSignature)], { searchTransactionHistory: true }).send()
  if (!status) return finalizedHeight > lastValidBlockHeight ? 'expired' : 'pending'
  // Old nodes leave confirmationStatus out; their confirmations is null once rooted.
  const reached: Commitment = status.confirmationStatus ?? (status.confirmations === null ? 'finalized' : 'processed')
  if (commitmentRank[reached] < commitmentRank[chain.commitment]) return 'pending'
  return status.err ? 'failed' : 'confirmed'
}
