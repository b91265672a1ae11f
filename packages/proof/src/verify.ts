import { type MemoTransaction, memoText, parseMemo, RpcReadError, readMemo } from './memo.ts'
import { type LiabilityProofData, type ProofFailure, verifyProof } from './proof.ts'
import type { SumNode } from './tree.ts'

export type InclusionFailure =
  | ProofFailure
  /** The proof names no memo transaction yet (signature null). */
  | 'unpublished'
  /** The RPC endpoint could not be asked. */
  | 'rpc'
  /** The RPC endpoint does not know the memo transaction. */
  | 'txNotFound'
  /** The memo transaction failed on chain: it published nothing. */
  | 'txFailed'
  /** The memo transaction does not publish this root (snapshot id, hash and sums). */
  | 'memoMismatch'
  /** The memo transaction is not signed by the treasury the verifier was told. */
  | 'signer'

export type Inclusion =
  | { ok: true; root: SumNode; transaction: MemoTransaction }
  | { ok: false; reason: InclusionFailure; message: string; transaction?: MemoTransaction }

export interface InclusionRequest {
  proof: LiabilityProofData
  /** The user's address: the proof must include it. */
  address: string
  /** The chain's JSON-RPC endpoint the memo transaction is read from (not the platform's API). */
  rpcUrl: string
  /** When given, the memo transaction must be signed by this address (the platform's treasury). */
  treasury?: string
}

/**
 * The whole check, without the platform's API: the proof leads from the user's leaf to its root, and that root (with
 * the snapshot id and the sums) is what the memo transaction published on chain — signed by the treasury when given.
 */
export async function verifyInclusion(request: InclusionRequest): Promise<Inclusion> {
  const { proof, treasury } = request
  const check = verifyProof(proof, request.address)
  if (!check.valid) return { ok: false, reason: check.reason, message: check.message }
  if (proof.signature === null) {
    return { ok: false, reason: 'unpublished', message: 'the snapshot names no memo transaction yet' }
  }
  let transaction: MemoTransaction | null
  try {
    transaction = await readMemo(request.rpcUrl, proof.signature)
  } catch (error) {
    if (error instanceof RpcReadError) return { ok: false, reason: 'rpc', message: error.message }
    throw error
  }
  if (!transaction) {
    return {
      ok: false,
      reason: 'txNotFound',
      message: `${request.rpcUrl} does not know transaction ${proof.signature}`,
    }
  }
  if (transaction.err !== null) {
    return {
      ok: false,
      reason: 'txFailed',
      message: `transaction ${proof.signature} failed on chain (${JSON.stringify(transaction.err)}): it published nothing`,
      transaction,
    }
  }
  const expected = memoText(proof.snapshot_id, proof.root)
  if (!transaction.memos.includes(expected)) {
    const published = transaction.memos.map(parseMemo).find((memo) => memo !== null)
    return {
      ok: false,
      reason: 'memoMismatch',
      message: published
        ? `transaction ${proof.signature} publishes snapshot ${published.snapshotId}'s root ${published.root.hash} with sums ${published.root.sums.join(',')}, not this proof's (expected "${expected}")`
        : `transaction ${proof.signature} carries no proof-of-liabilities memo (expected "${expected}")`,
      transaction,
    }
  }
  if (treasury !== undefined && !transaction.signers.includes(treasury)) {
    return {
      ok: false,
      reason: 'signer',
      message: `transaction ${proof.signature} is signed by ${transaction.signers.join(', ')}, not by the treasury ${treasury}`,
      transaction,
    }
  }
  return { ok: true, root: check.root, transaction }
}
