import { ed25519 } from '@noble/curves/ed25519'
import {
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { describe, expect, it } from 'vitest'
import { decodeTransaction, signTransaction } from './transaction.ts'

const blockhash = new PublicKey(new Uint8Array(32).fill(7)).toBase58()

describe("the test wallet's transaction signing", () => {
  const payer = Keypair.generate()
  const other = Keypair.generate()
  const sign = (key: Keypair) => (message: Uint8Array) => ed25519.sign(message, key.secretKey.slice(0, 32))
  const transfer = (from: PublicKey) =>
    SystemProgram.transfer({ fromPubkey: from, toPubkey: Keypair.generate().publicKey, lamports: 5 })

  it('fills its slot of a legacy transaction with a valid signature and keeps the others', () => {
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash })
      .add(transfer(payer.publicKey))
      .add(transfer(other.publicKey))
    tx.partialSign(other)
    const wire = tx.serialize({ requireAllSignatures: false, verifySignatures: false })
    const signed = Transaction.from(signTransaction(wire, payer.publicKey.toBytes(), sign(payer)))
    expect(signed.verifySignatures()).toBe(true)
    expect(signed.signatures.map((s) => s.publicKey.toBase58())).toEqual(
      [payer, other].map((k) => k.publicKey.toBase58()),
    )
  })

  it('signs a version 0 transaction and refuses a key that is not a signer', () => {
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [transfer(payer.publicKey)],
    }).compileToV0Message()
    const wire = new VersionedTransaction(message).serialize()
    expect(decodeTransaction(wire).signers).toHaveLength(1)
    const signed = VersionedTransaction.deserialize(signTransaction(wire, payer.publicKey.toBytes(), sign(payer)))
    const [signature] = signed.signatures
    expect(ed25519.verify(signature as Uint8Array, signed.message.serialize(), payer.publicKey.toBytes())).toBe(true)
    expect(() => signTransaction(wire, other.publicKey.toBytes(), sign(other))).toThrow(/not a signer/)
  })
})
