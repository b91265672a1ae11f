import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils'

/**
 * Proof of liabilities, format v1 (docs/proof-of-liabilities.md): the hashing of the Merkle sum tree. Every amount and
 * sum is an unsigned integer of base units written as 16 bytes big-endian; the sums of a node are one per asset, in
 * the snapshot's asset order.
 */

export const FORMAT = 'solpledge-pol-v1'
export const USER_DOMAIN = `${FORMAT}:user`
export const LEAF_DOMAIN = `${FORMAT}:leaf`
export const NODE_DOMAIN = `${FORMAT}:node`
export const HASH_BYTES = 32
export const AMOUNT_BYTES = 16
/** The largest amount or sum 16 bytes hold: 2¹²⁸ − 1. */
export const MAX_AMOUNT = (1n << 128n) - 1n

/** A node of the tree: its hash and its sums (one per asset). A leaf's sums are the user's amounts. */
export interface SumNode {
  hash: Uint8Array
  sums: bigint[]
}

/** An amount or a sum that does not fit 16 bytes (or is negative): no valid tree has one. */
export class AmountRangeError extends RangeError {
  override readonly name = 'AmountRangeError'
}

const userDomain = utf8ToBytes(USER_DOMAIN)
const leafDomain = utf8ToBytes(LEAF_DOMAIN)
const nodeDomain = utf8ToBytes(NODE_DOMAIN)

/** An amount as 16 bytes, big-endian. Throws AmountRangeError outside 0 … 2¹²⁸ − 1. */
export function encodeAmount(amount: bigint): Uint8Array {
  if (amount < 0n || amount > MAX_AMOUNT) throw new AmountRangeError(`${amount} does not fit 16 bytes unsigned`)
  const bytes = new Uint8Array(AMOUNT_BYTES)
  let rest = amount
  for (let i = AMOUNT_BYTES - 1; i >= 0; i--) {
    bytes[i] = Number(rest & 0xffn)
    rest >>= 8n
  }
  return bytes
}

const encodeSums = (sums: readonly bigint[]) => concatBytes(...sums.map(encodeAmount))

function expectLength(bytes: Uint8Array, length: number, what: string) {
  if (bytes.length !== length) throw new RangeError(`${what} must be ${length} bytes, not ${bytes.length}`)
}

/** `SHA-256("solpledge-pol-v1:user" ‖ address ‖ salt)`: the leaf's stand-in for the user (32-byte key, 32-byte salt). */
export function commitment(address: Uint8Array, salt: Uint8Array): Uint8Array {
  expectLength(address, HASH_BYTES, 'An address')
  expectLength(salt, HASH_BYTES, 'A salt')
  return sha256(concatBytes(userDomain, address, salt))
}

/** `SHA-256("solpledge-pol-v1:leaf" ‖ commitment ‖ amount₁ ‖ … ‖ amountₙ)`, with sums = the amounts. */
export function leafNode(userCommitment: Uint8Array, amounts: readonly bigint[]): SumNode {
  expectLength(userCommitment, HASH_BYTES, 'A commitment')
  return { hash: sha256(concatBytes(leafDomain, userCommitment, encodeSums(amounts))), sums: [...amounts] }
}

/** The missing right child of a level with an odd number of nodes: 32 zero bytes, every sum zero. */
export function emptyNode(assetCount: number): SumNode {
  return { hash: new Uint8Array(HASH_BYTES), sums: new Array<bigint>(assetCount).fill(0n) }
}

export function isEmptyNode(node: SumNode): boolean {
  return node.hash.every((byte) => byte === 0) && node.sums.every((sum) => sum === 0n)
}

/**
 * `SHA-256("solpledge-pol-v1:node" ‖ left.hash ‖ left.sums ‖ right.hash ‖ right.sums)`, with sums = left.sums +
 * right.sums. Throws AmountRangeError when a sum passes 2¹²⁸ − 1, RangeError when the two have different asset counts.
 */
export function parentNode(left: SumNode, right: SumNode): SumNode {
  if (left.sums.length !== right.sums.length) {
    throw new RangeError(`A node with ${left.sums.length} sums cannot pair with one of ${right.sums.length}`)
  }
  expectLength(left.hash, HASH_BYTES, 'A hash')
  expectLength(right.hash, HASH_BYTES, 'A hash')
  const sums = left.sums.map((sum, i) => sum + (right.sums[i] ?? 0n))
  const hash = sha256(concatBytes(nodeDomain, left.hash, encodeSums(left.sums), right.hash, encodeSums(right.sums)))
  for (const sum of sums) encodeAmount(sum)
  return { hash, sums }
}

/** The JSON form of a node (the API's and the proof file's): hash in lowercase hex, sums as decimal strings. */
export interface NodeJson {
  hash: string
  sums: string[]
}

export const nodeToJson = (node: SumNode): NodeJson => ({
  hash: bytesToHex(node.hash),
  sums: node.sums.map(String),
})

export function sameNode(a: SumNode, b: SumNode): boolean {
  return (
    bytesToHex(a.hash) === bytesToHex(b.hash) &&
    a.sums.length === b.sums.length &&
    a.sums.every((sum, i) => sum === b.sums[i])
  )
}
