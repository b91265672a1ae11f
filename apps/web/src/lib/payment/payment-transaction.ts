import '../wallet/buffer-global.ts'
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import { PublicKey, Transaction } from '@solana/web3.js'
import type { PaymentIntent } from '@solpledge/contract/client'
import { associatedTokenAccount } from './token-account.ts'

/** The accounts a payment touches, from the intent, the paying wallet and the program that owns the mint. */
export function paymentAccounts(intent: PaymentIntent, owner: PublicKey, tokenProgram: PublicKey = TOKEN_PROGRAM_ID) {
  const mint = new PublicKey(intent.mint)
  const recipient = new PublicKey(intent.recipient)
  const destination = new PublicKey(intent.recipient_token_account)
  // The server credits payments into the recipient's associated token account only; anything else would be lost.
  if (!destination.equals(associatedTokenAccount(mint, recipient, tokenProgram)))
    throw new Error('The intent names a recipient token account that is not the recipient’s associated one')
  return {
    mint,
    recipient,
    destination,
    source: associatedTokenAccount(mint, owner, tokenProgram),
    reference: new PublicKey(intent.reference),
  }
}

/**
 * The transaction that pays an intent of any purpose (docs/design.md#inflows-payment-intents): when the recipient has
 * no token account yet, an idempotent instruction that creates it (the user pays its rent); then a TransferChecked of
 * the intent's amount from the user's associated token account, carrying the intent's reference as an extra read-only,
 * non-signer key so the server can find and verify it. Both on `tokenProgram`, the program that owns the mint (classic
 * SPL Token or Token-2022).
 */
export function buildPaymentTransaction(
  intent: PaymentIntent,
  owner: PublicKey,
  createRecipientAccount: boolean,
  tokenProgram: PublicKey = TOKEN_PROGRAM_ID,
) {
  const { mint, recipient, destination, source, reference } = paymentAccounts(intent, owner, tokenProgram)
  const transaction = new Transaction({ feePayer: owner })
  if (createRecipientAccount)
    transaction.add(
      createAssociatedTokenAccountIdempotentInstruction(owner, destination, recipient, mint, tokenProgram),
    )
  const transfer = createTransferCheckedInstruction(
    source,
    mint,
    destination,
    owner,
    BigInt(intent.amount),
    intent.decimals,
    [],
    tokenProgram,
  )
  transfer.keys.push({ pubkey: reference, isSigner: false, isWritable: false })
  return transaction.add(transfer)
}
