import {
  AccountRole,
  type Address,
  address,
  appendTransactionMessageInstructions,
  type Base64EncodedWireTransaction,
  type Commitment,
  compileTransaction,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  isSolanaError,
  type KeyPairSigner,
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
import { associatedTokenAddress, tokenProgramOf } from './token.ts'

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

/** The ComputeBudget program: the compute-unit limit and price (priority fee) of a transaction. */
const COMPUTE_BUDGET_PROGRAM = address('ComputeBudget111111111111111111111111111111')
/** The most compute units a transaction may ask for. */
const MAX_COMPUTE_UNITS = 1_400_000
/** The limit of a payout whose simulation failed (its send is refused by preflight anyway, for the same reason). */
const FALLBACK_COMPUTE_UNITS = 200_000

function setComputeUnitLimit(units: number): Instruction {
  const data = new Uint8Array(5)
  data[0] = 2
  new DataView(data.buffer).setUint32(1, units, true)
  return { programAddress: COMPUTE_BUDGET_PROGRAM, data }
}

function setComputeUnitPrice(microLamports: bigint): Instruction {
  const data = new Uint8Array(9)
  data[0] = 3
  new DataView(data.buffer).setBigUint64(1, microLamports, true)
  return { programAddress: COMPUTE_BUDGET_PROGRAM, data }
}

/**
 * The compute-unit price (micro-lamports) of a server-signed transaction writing `writable`: the configured price, or
 * the chain's percentile of the recent fees paid for those accounts (getRecentPrioritizationFees); at most the ceiling.
 */
export async function computeUnitPrice(chain: Chain, writable: Address[]): Promise<bigint> {
  const { fixed, max, percentile } = chain.priorityFee
  let price = fixed
  if (price === undefined) {
    const recent = await chain.rpc.getRecentPrioritizationFees(writable).send()
    const fees = recent.map((entry) => BigInt(entry.prioritizationFee)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    // Nearest rank: the smallest fee at or above `percentile` percent of the slots.
    price = fees[Math.max(0, Math.ceil((percentile / 100) * fees.length) - 1)] ?? 0n
  }
  if (price > max) return max
  return price
}

/**
 * Builds and signs, without sending, a transaction from the hot wallet: the compute budget (a unit limit sized by
 * simulating it, plus 10 %, and the priority fee), create `to`'s associated token account (idempotent, paid by the hot
 * wallet), then TransferChecked from the hot wallet's associated token account — both on the mint's own token program
 * (classic SPL Token or Token-2022) — then the memo.
 * Store the result before calling sendPrepared.
 */
export async function preparePayout(chain: Chain, request: PayoutRequest): Promise<PreparedPayout> {
  const hotWallet = await createKeyPairSignerFromBytes(request.hotWallet.secretKey)
  const mint = address(request.mint)
  const owner = address(request.to)
  const tokenProgram = await tokenProgramOf(chain, mint)
  const source = await associatedTokenAddress(hotWallet.address, mint, tokenProgram)
  const destination = await associatedTokenAddress(owner, mint, tokenProgram)
  return prepareTransaction(
    chain,
    hotWallet,
    [source, destination],
    [
      getCreateAssociatedTokenIdempotentInstruction({ payer: hotWallet, ata: destination, owner, mint, tokenProgram }),
      getTransferCheckedInstruction(
        { source, mint, destination, authority: hotWallet, amount: request.amount, decimals: request.decimals },
        { programAddress: tokenProgram },
      ),
      memoInstruction(request.memo),
    ],
  )
}

/** An SPL Memo instruction; each of `signers` must sign the transaction, and the memo program checks they did. */
export function memoInstruction(text: string, signers: KeyPairSigner[] = []): Instruction {
  return {
    programAddress: MEMO_PROGRAM,
    accounts: signers.map((signer) => ({ address: signer.address, role: AccountRole.READONLY_SIGNER, signer })),
    data: new TextEncoder().encode(text),
  }
}

/**
 * Builds and signs, without sending, a transaction paid by `feePayer`: the compute budget (a unit limit sized by
 * simulating it, plus 10 %, and the priority fee for the accounts it writes besides the fee payer), then
 * `instructions`, signed by the fee payer and every signer their accounts name. Store the result before sending it.
 */
export async function prepareTransaction(
  chain: Chain,
  feePayer: KeyPairSigner,
  writable: Address[],
  instructions: Instruction[],
): Promise<PreparedPayout> {
  const [{ value: blockhash }, price] = await Promise.all([
    chain.rpc.getLatestBlockhash({ commitment: chain.commitment }).send(),
    computeUnitPrice(chain, [feePayer.address, ...writable]),
  ])
  const messageWith = (units: number) =>
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
      (m) =>
        appendTransactionMessageInstructions(
          [setComputeUnitLimit(units), setComputeUnitPrice(price), ...instructions],
          m,
        ),
    )
  const simulated = await chain.rpc
    .simulateTransaction(getBase64EncodedWireTransaction(compileTransaction(messageWith(MAX_COMPUTE_UNITS))), {
      encoding: 'base64',
      sigVerify: false,
      commitment: chain.commitment,
    })
    .send()
  const used = simulated.value.err === null ? Number(simulated.value.unitsConsumed ?? 0n) : 0
  const units = used > 0 ? Math.min(MAX_COMPUTE_UNITS, Math.ceil(used * 1.1)) : FALLBACK_COMPUTE_UNITS
  const transaction = await signTransactionMessageWithSigners(messageWith(units))
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

/** A stored payout to ask about: its signature and the last block height its blockhash is valid at. */
export interface StoredPayout {
  signature: string
  lastValidBlockHeight: bigint
}

/** The most signatures one getSignatureStatuses call takes. */
const STATUSES_PER_CALL = 256

/**
 * Where a prepared payout stands. 'expired' is proof that it can never land: the finalized block height is past its
 * last valid height and no status exists for it — only then may a new transaction replace it.
 */
export async function payoutStatus(
  chain: Chain,
  payoutSignature: string,
  lastValidBlockHeight: bigint,
): Promise<PayoutStatus> {
  const [status] = await payoutStatuses(chain, [{ signature: payoutSignature, lastValidBlockHeight }])
  return status as PayoutStatus
}

/**
 * payoutStatus for many payouts at once, in their order: one getBlockHeight, then one getSignatureStatuses per 256
 * signatures (the withdrawal sender asks about all the payouts of its pass so). Each answer is what payoutStatus would
 * say: the one height read before every status serves them all, as the single call's does.
 */
export async function payoutStatuses(chain: Chain, payouts: readonly StoredPayout[]): Promise<PayoutStatus[]> {
  if (payouts.length === 0) return []
  // Read the height before the statuses: a transaction absent after a finalized height past its limit never lands.
  const finalizedHeight = await chain.rpc.getBlockHeight({ commitment: 'finalized' }).send()
  const answers: PayoutStatus[] = []
  for (let from = 0; from < payouts.length; from += STATUSES_PER_CALL) {
    const part = payouts.slice(from, from + STATUSES_PER_CALL)
    const { value } = await chain.rpc
      .getSignatureStatuses(
        part.map((payout) => signature(payout.signature)),
        { searchTransactionHistory: true },
      )
      .send()
    part.forEach((payout, i) => {
      const status = value[i]
      if (!status) {
        answers.push(finalizedHeight > payout.lastValidBlockHeight ? 'expired' : 'pending')
        return
      }
      // Old nodes leave confirmationStatus out; their confirmations is null once rooted.
      const reached: Commitment =
        status.confirmationStatus ?? (status.confirmations === null ? 'finalized' : 'processed')
      if (commitmentRank[reached] < commitmentRank[chain.commitment]) answers.push('pending')
      else answers.push(status.err ? 'failed' : 'confirmed')
    })
  }
  return answers
}
