import { createPublicKey, randomUUID, verify } from 'node:crypto'
import { getBase58Decoder, getBase58Encoder, type ReadonlyUint8Array } from '@solana/kit'
import { RpcError } from './errors.ts'

const base58Decoder = getBase58Decoder()
const base58Encoder = getBase58Encoder()

/** Bytes → base58 string. */
export function toBase58(bytes: ReadonlyUint8Array): string {
  return base58Decoder.decode(bytes)
}

/** base58 string → bytes (throws on an invalid alphabet). */
export function fromBase58(text: string): Uint8Array {
  return new Uint8Array(base58Encoder.encode(text))
}

export function toBase64(bytes: ReadonlyUint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
}

export function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'))
}

/** True when `text` is a base58 string that decodes to exactly `length` bytes. */
export function isBase58OfLength(text: unknown, length: number): text is string {
  if (typeof text !== 'string' || text.length === 0 || text.length > 88) return false
  try {
    return fromBase58(text).length === length
  } catch {
    return false
  }
}

// A per-process random marker, so that no string value can be mistaken for a bigint placeholder.
const BIGINT_TAG = `bigint-${randomUUID()}:`
const BIGINT_PATTERN = new RegExp(`"${BIGINT_TAG}(-?\\d+)"`, 'g')

/**
 * JSON.stringify that writes bigints as plain JSON numbers (u64 values such as lamports and rentEpoch must not be
 * rounded for clients that parse big integers, like @solana/kit).
 */
export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${BIGINT_TAG}${v}` : v))
  return text.includes(BIGINT_TAG) ? text.replace(BIGINT_PATTERN, '$1') : text
}

// ---------------------------------------------------------------------------------------------------------------
// Wire transactions (legacy and v0), parsed by hand so that byte offsets (e.g. the recent blockhash) are known.
// ---------------------------------------------------------------------------------------------------------------

export interface CompiledInstruction {
  programIdIndex: number
  accounts: number[]
  data: Uint8Array
}

export interface AddressTableLookup {
  accountKey: string
  writableIndexes: number[]
  readonlyIndexes: number[]
}

export interface MessageHeader {
  numRequiredSignatures: number
  numReadonlySignedAccounts: number
  numReadonlyUnsignedAccounts: number
}

export interface ParsedMessage {
  bytes: Uint8Array
  version: 'legacy' | 0
  header: MessageHeader
  staticKeys: string[]
  recentBlockhash: string
  /** Offset of the 32-byte recent blockhash inside the message bytes. */
  blockhashOffset: number
  instructions: CompiledInstruction[]
  addressTableLookups: AddressTableLookup[]
}

export interface ParsedTransaction {
  bytes: Uint8Array
  signatures: Uint8Array[]
  /** Offset of the message inside the wire bytes. */
  messageOffset: number
  message: ParsedMessage
}

class Reader {
  offset = 0
  constructor(private readonly bytes: Uint8Array) {}

  byte(): number {
    const value = this.bytes[this.offset]
    if (value === undefined) throw new Error('io error: unexpected end of file')
    this.offset += 1
    return value
  }

  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new Error('io error: unexpected end of file')
    const out = this.bytes.subarray(this.offset, this.offset + length)
    this.offset += length
    return out
  }

  /** Solana's compact-u16 ("shortvec") length prefix. */
  shortVec(): number {
    let value = 0
    for (let i = 0; i < 3; i++) {
      const byte = this.byte()
      value |= (byte & 0x7f) << (7 * i)
      if ((byte & 0x80) === 0) return value
    }
    throw new Error('invalid compact-u16 length')
  }
}

function readMessage(reader: Reader, bytes: Uint8Array, start: number): ParsedMessage {
  const first = reader.byte()
  let version: 'legacy' | 0 = 'legacy'
  let numRequiredSignatures = first
  if (first & 0x80) {
    const v = first & 0x7f
    if (v !== 0) throw new RpcError(-32602, `invalid transaction: Transaction version (${v}) is not supported`)
    version = 0
    numRequiredSignatures = reader.byte()
  }
  const header: MessageHeader = {
    numRequiredSignatures,
    numReadonlySignedAccounts: reader.byte(),
    numReadonlyUnsignedAccounts: reader.byte(),
  }
  const keyCount = reader.shortVec()
  const staticKeys: string[] = []
  for (let i = 0; i < keyCount; i++) staticKeys.push(toBase58(reader.take(32)))
  const blockhashOffset = reader.offset - start
  const recentBlockhash = toBase58(reader.take(32))
  const instructionCount = reader.shortVec()
  const instructions: CompiledInstruction[] = []
  for (let i = 0; i < instructionCount; i++) {
    const programIdIndex = reader.byte()
    const accounts = Array.from(reader.take(reader.shortVec()))
    const data = reader.take(reader.shortVec())
    instructions.push({ programIdIndex, accounts, data })
  }
  const addressTableLookups: AddressTableLookup[] = []
  if (version === 0) {
    const lookupCount = reader.shortVec()
    for (let i = 0; i < lookupCount; i++) {
      const accountKey = toBase58(reader.take(32))
      const writableIndexes = Array.from(reader.take(reader.shortVec()))
      const readonlyIndexes = Array.from(reader.take(reader.shortVec()))
      addressTableLookups.push({ accountKey, writableIndexes, readonlyIndexes })
    }
  }
  const message: ParsedMessage = {
    bytes: bytes.subarray(start, reader.offset),
    version,
    header,
    staticKeys,
    recentBlockhash,
    blockhashOffset,
    instructions,
    addressTableLookups,
  }
  sanitizeMessage(message)
  return message
}

function sanitizeMessage(message: ParsedMessage): void {
  const { header, staticKeys, instructions, addressTableLookups } = message
  const loadedCount = addressTableLookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0)
  const total = staticKeys.length + loadedCount
  const fail = () => {
    throw new RpcError(-32602, 'invalid transaction: Transaction failed to sanitize accounts offsets correctly')
  }
  if (header.numRequiredSignatures === 0 || header.numRequiredSignatures > staticKeys.length) fail()
  if (header.numReadonlySignedAccounts >= header.numRequiredSignatures) fail()
  if (header.numReadonlyUnsignedAccounts > staticKeys.length - header.numRequiredSignatures) fail()
  if (total > 256) fail()
  if (new Set(staticKeys).size !== staticKeys.length) {
    throw new RpcError(-32602, 'invalid transaction: Account loaded twice')
  }
  for (const ix of instructions) {
    if (ix.programIdIndex === 0 || ix.programIdIndex >= staticKeys.length) fail()
    for (const a of ix.accounts) if (a >= total) fail()
  }
}

/** Parses wire bytes of a legacy or v0 transaction; throws RpcError(-32602) like a validator would. */
export function parseTransaction(bytes: Uint8Array): ParsedTransaction {
  const reader = new Reader(bytes)
  let signatures: Uint8Array[]
  let messageOffset: number
  let message: ParsedMessage
  try {
    const count = reader.shortVec()
    signatures = []
    for (let i = 0; i < count; i++) signatures.push(reader.take(64))
    messageOffset = reader.offset
    message = readMessage(reader, bytes, messageOffset)
  } catch (error) {
    if (error instanceof RpcError) throw error
    throw new RpcError(
      -32602,
      `failed to deserialize solana_transaction::versioned::VersionedTransaction: ${(error as Error).message}`,
    )
  }
  if (signatures.length !== message.header.numRequiredSignatures) {
    throw new RpcError(-32602, 'invalid transaction: Transaction failed to sanitize accounts offsets correctly')
  }
  return { bytes, signatures, messageOffset, message }
}

/** Parses a bare message (as sent to getFeeForMessage). */
export function parseMessage(bytes: Uint8Array): ParsedMessage {
  try {
    return readMessage(new Reader(bytes), bytes, 0)
  } catch (error) {
    if (error instanceof RpcError) throw error
    throw new RpcError(-32602, `failed to deserialize solana_message::VersionedMessage: ${(error as Error).message}`)
  }
}

/** Is the static account at `index` writable according to the message header? */
export function isStaticWritable(message: ParsedMessage, index: number): boolean {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header
  if (index < numRequiredSignatures) return index < numRequiredSignatures - numReadonlySignedAccounts
  return index < message.staticKeys.length - numReadonlyUnsignedAccounts
}

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

/** Verifies an Ed25519 signature of `message` by the 32-byte public key `address`. */
export function verifyEd25519(address: string, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, fromBase58(address)]),
      format: 'der',
      type: 'spki',
    })
    return verify(null, message, key, signature)
  } catch {
    return false
  }
}

/** Every required signer must have signed the message bytes. */
export function verifyTransactionSignatures(tx: ParsedTransaction): boolean {
  const message = tx.message.bytes
  return tx.signatures.every((sig, i) => {
    const signer = tx.message.staticKeys[i]
    return signer !== undefined && verifyEd25519(signer, message, sig)
  })
}
