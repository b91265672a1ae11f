import { type Address, address, getBase58Encoder, isSignature, type Signature } from '@solana/kit'
import { getTransferCheckedInstructionDataDecoder, TRANSFER_CHECKED_DISCRIMINATOR } from '@solana-program/token'
import type { Chain } from './rpc.ts'
import { ownerTokenAccount, TOKEN_PROGRAMS } from './token.ts'

export type DepositRefusal =
  | 'not_found'
  | 'failed'
  | 'no_transfer'
  | 'wrong_mint'
  | 'wrong_recipient'
  | 'wrong_amount'
  | 'not_signed_by_payer'
  | 'missing_reference'

export interface ExpectedDeposit {
  signature: string
  mint: string
  /** The platform wallet whose associated token account for `mint` receives the tokens. */
  recipientOwner: string
  /** Base units. */
  amount: bigint
  /** The intent's reference key, an extra read-only key of the TransferChecked instruction. */
  reference: string
  /** The user's wallet: the transfer's authority and a signer of the transaction. */
  payer: string
}

export type DepositVerdict =
  | { ok: true; slot: bigint; blockTime: bigint | null }
  | { ok: false; reason: DepositRefusal }

interface TransferChecked {
  mint: Address
  destination: Address
  authority: Address
  /** Keys after source, mint, destination and authority: where a Solana Pay reference sits. */
  extraKeys: Address[]
  amount: bigint
  decimals: number
}

const refuse = (reason: DepositRefusal): DepositVerdict => ({ ok: false, reason })

/**
 * Checks that a transaction pays the expected deposit; see README.md for the rules. Only top-level instructions count.
 * Exactly-once use of a signature is the caller's job.
 */
export async function verifyDeposit(chain: Chain, expected: ExpectedDeposit): Promise<DepositVerdict> {
  if (!isSignature(expected.signature)) return refuse('not_found')
  const tx = await chain.rpc
    .getTransaction(expected.signature, {
      commitment: chain.commitment,
      maxSupportedTransactionVersion: 0,
      encoding: 'json',
    })
    .send()
  if (!tx?.meta) return refuse('not_found')
  if (tx.meta.err) return refuse('failed')

  const { message } = tx.transaction
  const loaded = tx.meta.loadedAddresses
  const keys = [...message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])]
  const signers = message.accountKeys.slice(0, message.header.numRequiredSignatures)
  const keyAt = (index: number): Address => {
    const key = keys[index]
    if (!key) throw new Error(`transaction ${expected.signature}: account index ${index} out of range`)
    return key
  }
  const transfers = message.instructions.flatMap((instruction): TransferChecked[] => {
    // TransferChecked has the same layout on the classic program and on Token-2022.
    if (!TOKEN_PROGRAMS.includes(keyAt(instruction.programIdIndex))) return []
    const data = getBase58Encoder().encode(instruction.data)
    // Like the token program, read the first 10 bytes: discriminator, u64 amount, u8 decimals.
    if (data.length < 10 || data[0] !== TRANSFER_CHECKED_DISCRIMINATOR) return []
    const [, mint, destination, authority, ...extraKeys] = instruction.accounts.map(keyAt)
    if (!mint || !destination || !authority) return []
    const { amount, decimals } = getTransferCheckedInstructionDataDecoder().decode(data)
    return [{ mint, destination, authority, extraKeys, amount, decimals }]
  })
  if (transfers.length === 0) return refuse('no_transfer')

  const mint = address(expected.mint)
  // Derived with the mint's own program: a transfer on the other program cannot reach this account.
  const recipientAccount = await ownerTokenAccount(chain, expected.recipientOwner, mint)
  const transfer = transfers.find((candidate) => candidate.destination === recipientAccount)
  if (!transfer) {
    return refuse(transfers.some((candidate) => candidate.mint === mint) ? 'wrong_recipient' : 'wrong_mint')
  }
  if (transfer.mint !== mint) return refuse('wrong_mint')
  const payer = address(expected.payer)
  if (transfer.authority !== payer || !signers.includes(payer)) return refuse('not_signed_by_payer')
  if (!transfer.extraKeys.includes(address(expected.reference))) return refuse('missing_reference')
  if (transfer.amount !== expected.amount) return refuse('wrong_amount')

  // The instruction says what was asked; the balances say what the recipient account really gained.
  const index = keys.indexOf(recipientAccount)
  const pre = tx.meta.preTokenBalances?.find((balance) => balance.accountIndex === index)
  const post = tx.meta.postTokenBalances?.find((balance) => balance.accountIndex === index)
  const units = (balance: typeof post) => (balance?.mint === mint ? BigInt(balance.uiTokenAmount.amount) : 0n)
  if (units(post) - units(pre) !== expected.amount || post?.uiTokenAmount.decimals !== transfer.decimals) {
    return refuse('wrong_amount')
  }
  return { ok: true, slot: tx.slot, blockTime: tx.blockTime }
}

/** Successful transactions that mention `reference`, oldest first (the watcher's way to find unreported payments). */
export async function findReferencePayments(chain: Chain, reference: string): Promise<Signature[]> {
  const found = await chain.rpc.getSignaturesForAddress(address(reference), { commitment: chain.commitment }).send()
  return found
    .filter((entry) => entry.err === null)
    .map((entry) => entry.signature)
    .reverse()
}
