import {
  ACCOUNT_SIZE,
  AccountLayout,
  AccountState,
  ASSOCIATED_TOKEN_PROGRAM_ID,
  decodeTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js'
import type { PaymentIntent } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import { buildPaymentTransaction } from './payment-transaction.ts'
import { mintProgram, readTokenAmount } from './token-account.ts'

const key = () => Keypair.generate().publicKey
const owner = key()
const recipient = key()
const mint = key()
const reference = key()
const userAta = getAssociatedTokenAddressSync(mint, owner)
const recipientAta = getAssociatedTokenAddressSync(mint, recipient)

const intent = (overrides: Partial<PaymentIntent> = {}): PaymentIntent => ({
  id: '7',
  purpose: 'recharge',
  coin: 'USDT',
  mint: mint.toBase58(),
  decimals: 6,
  amount: '12500000',
  recipient: recipient.toBase58(),
  recipient_token_account: recipientAta.toBase58(),
  reference: reference.toBase58(),
  status: 'pending',
  signature: null,
  days: null,
  level: null,
  applied_id: null,
  refusal: null,
  expires_at: '2030-01-01T00:00:00.000Z',
  created_at: '2029-12-31T23:45:00.000Z',
  ...overrides,
})

const meta = (pubkey: PublicKey, isSigner: boolean, isWritable: boolean) => ({ pubkey, isSigner, isWritable })

describe('buildPaymentTransaction', () => {
  it('is one TransferChecked from the user to the recipient account, the reference last and read-only', () => {
    const tx = buildPaymentTransaction(intent(), owner, false)
    expect(tx.feePayer?.equals(owner)).toBe(true)
    expect(tx.instructions).toHaveLength(1)
    const [transfer] = tx.instructions
    expect(transfer?.programId.equals(TOKEN_PROGRAM_ID)).toBe(true)
    expect(transfer?.keys).toEqual([
      meta(userAta, false, true),
      meta(mint, false, false),
      meta(recipientAta, false, true),
      meta(owner, true, false),
      meta(reference, false, false),
    ])
    const decoded = decodeTransferCheckedInstruction(transfer as NonNullable<typeof transfer>)
    expect(decoded.data.amount).toBe(12_500_000n)
    expect(decoded.data.decimals).toBe(6)
  })

  it('keeps the reference a read-only non-signer in the compiled message', () => {
    const tx = buildPaymentTransaction(intent(), owner, false)
    tx.recentBlockhash = key().toBase58()
    const message = tx.compileMessage()
    const index = message.accountKeys.findIndex((account) => account.equals(reference))
    expect(index).toBeGreaterThan(0)
    expect(message.isAccountSigner(index)).toBe(false)
    expect(message.isAccountWritable(index)).toBe(false)
    expect(message.accountKeys[0]?.equals(owner)).toBe(true)
  })

  it('first creates the recipient token account, idempotently, when it does not exist', () => {
    const tx = buildPaymentTransaction(intent(), owner, true)
    expect(tx.instructions).toHaveLength(2)
    const [create, transfer] = tx.instructions
    expect(create?.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID)).toBe(true)
    expect(create?.keys).toEqual([
      meta(owner, true, true),
      meta(recipientAta, false, true),
      meta(recipient, false, false),
      meta(mint, false, false),
      meta(SystemProgram.programId, false, false),
      meta(TOKEN_PROGRAM_ID, false, false),
    ])
    // 1: CreateIdempotent, so a racing creation by someone else does not fail the payment.
    expect([...(create?.data ?? [])]).toEqual([1])
    expect(transfer?.programId.equals(TOKEN_PROGRAM_ID)).toBe(true)
    expect(transfer?.keys.at(-1)).toEqual(meta(reference, false, false))
  })

  it('carries amounts beyond 2^53 exactly', () => {
    const max = 18_446_744_073_709_551_615n
    const tx = buildPaymentTransaction(intent({ amount: max.toString(), decimals: 9 }), owner, false)
    const decoded = decodeTransferCheckedInstruction(tx.instructions[0] as NonNullable<(typeof tx.instructions)[0]>)
    expect(decoded.data.amount).toBe(max)
    expect(decoded.data.decimals).toBe(9)
  })

  it("builds a Token-2022 mint's payment on Token-2022: its associated accounts, its TransferChecked", () => {
    const recipient2022 = getAssociatedTokenAddressSync(mint, recipient, false, TOKEN_2022_PROGRAM_ID)
    const tx = buildPaymentTransaction(
      intent({ recipient_token_account: recipient2022.toBase58() }),
      owner,
      true,
      TOKEN_2022_PROGRAM_ID,
    )
    const [create, transfer] = tx.instructions
    expect(create?.keys.map((k) => k.pubkey.toBase58())).toEqual(
      [owner, recipient2022, recipient, mint, SystemProgram.programId, TOKEN_2022_PROGRAM_ID].map((k) => k.toBase58()),
    )
    expect(transfer?.programId.equals(TOKEN_2022_PROGRAM_ID)).toBe(true)
    expect(transfer?.keys).toEqual([
      meta(getAssociatedTokenAddressSync(mint, owner, false, TOKEN_2022_PROGRAM_ID), false, true),
      meta(mint, false, false),
      meta(recipient2022, false, true),
      meta(owner, true, false),
      meta(reference, false, false),
    ])
    // The classic program's account for a Token-2022 mint is not where the server looks: refused.
    expect(() => buildPaymentTransaction(intent(), owner, false, TOKEN_2022_PROGRAM_ID)).toThrow(/associated/)
  })

  it("reads the mint's program from its account and refuses a mint no token program owns", () => {
    const info = (programOwner: PublicKey) => ({
      data: Buffer.alloc(82),
      owner: programOwner,
      lamports: 1,
      executable: false,
      rentEpoch: 0,
    })
    expect(mintProgram(info(TOKEN_2022_PROGRAM_ID)).equals(TOKEN_2022_PROGRAM_ID)).toBe(true)
    expect(mintProgram(info(TOKEN_PROGRAM_ID)).equals(TOKEN_PROGRAM_ID)).toBe(true)
    expect(() => mintProgram(info(SystemProgram.programId))).toThrow(/no token program/)
    expect(() => mintProgram(null)).toThrow(/no token program/)
  })

  it('refuses an intent whose recipient token account is not the associated one', () => {
    expect(() => buildPaymentTransaction(intent({ recipient_token_account: key().toBase58() }), owner, false)).toThrow(
      /associated/,
    )
  })
})

describe('readTokenAmount', () => {
  it('reads the amount of a token account and null for a missing one', () => {
    const data = Buffer.alloc(ACCOUNT_SIZE)
    AccountLayout.encode(
      {
        mint,
        owner,
        amount: 5_000_001n,
        delegateOption: 0,
        delegate: PublicKey.default,
        state: AccountState.Initialized,
        isNativeOption: 0,
        isNative: 0n,
        delegatedAmount: 0n,
        closeAuthorityOption: 0,
        closeAuthority: PublicKey.default,
      },
      data,
    )
    const info = { data, owner: TOKEN_PROGRAM_ID, lamports: 2_039_280, executable: false, rentEpoch: 0 }
    expect(readTokenAmount(userAta, info)).toBe(5_000_001n)
    expect(readTokenAmount(userAta, null)).toBeNull()
    // A Token-2022 account: the base layout, then the account type and its ImmutableOwner extension.
    const data2022 = Buffer.concat([data, Buffer.from([2, 7, 0, 0, 0])])
    expect(readTokenAmount(userAta, { ...info, data: data2022, owner: TOKEN_2022_PROGRAM_ID })).toBe(5_000_001n)
  })
})
