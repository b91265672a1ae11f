// The Solana wire format, just as far as a wallet needs it to sign: the signature slots, the message after them, and
// the message's signer keys (legacy and version 0 messages alike).

/** A compact-u16 at `offset`: its value and the offset after it. */
function shortVec(bytes: Uint8Array, offset: number): [value: number, next: number] {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = bytes[offset + i]
    if (byte === undefined) throw new Error('The transaction ends inside a length')
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) return [value, offset + i + 1]
  }
  throw new Error('A length of the transaction is too long')
}

export interface WireTransaction {
  /** The signature slots (64 bytes each), in the order of the message's signer keys. */
  signatures: Uint8Array[]
  /** The message bytes, what each signer signs. */
  message: Uint8Array
  /** The keys that must sign (the first `numRequiredSignatures` account keys). */
  signers: Uint8Array[]
}

export function decodeTransaction(bytes: Uint8Array): WireTransaction {
  const [count, start] = shortVec(bytes, 0)
  const signatures = Array.from({ length: count }, (_, i) => bytes.slice(start + 64 * i, start + 64 * (i + 1)))
  const message = bytes.slice(start + 64 * count)
  // A version 0 message starts with 0x80 | version; a legacy one with its header.
  const header = (message[0] ?? 0) & 0x80 ? 1 : 0
  const required = message[header] ?? 0
  const [keys, keysAt] = shortVec(message, header + 3)
  if (required > keys || required !== count) throw new Error('The transaction has an unexpected number of signers')
  const signers = Array.from({ length: required }, (_, i) => message.slice(keysAt + 32 * i, keysAt + 32 * (i + 1)))
  return { signatures, message, signers }
}

export function encodeTransaction({ signatures, message }: WireTransaction): Uint8Array {
  // Fewer than 128 signatures: the count is one byte.
  const out = new Uint8Array(1 + 64 * signatures.length + message.length)
  out[0] = signatures.length
  signatures.forEach((signature, i) => {
    out.set(signature, 1 + 64 * i)
  })
  out.set(message, 1 + 64 * signatures.length)
  return out
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i])

/** The transaction with `publicKey`'s slot filled by `sign(message)`; throws when that key is not a signer. */
export function signTransaction(
  bytes: Uint8Array,
  publicKey: Uint8Array,
  sign: (message: Uint8Array) => Uint8Array,
): Uint8Array {
  const transaction = decodeTransaction(bytes)
  const index = transaction.signers.findIndex((key) => sameBytes(key, publicKey))
  if (index < 0) throw new Error('This account is not a signer of the transaction')
  transaction.signatures[index] = sign(transaction.message)
  return encodeTransaction(transaction)
}
