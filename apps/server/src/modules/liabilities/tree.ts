// The Merkle sum tree of proof of liabilities, format v1 (issue 16, docs/proof-of-liabilities.md):
//   commitment = SHA-256("solpledge-pol-v1:user" ‖ address (32 raw bytes) ‖ salt (32 bytes))
//   leaf       = SHA-256("solpledge-pol-v1:leaf" ‖ commitment ‖ amount₁ ‖ … ‖ amountₙ), sums = the amounts
//   node       = SHA-256("solpledge-pol-v1:node" ‖ left.hash ‖ left.sums ‖ right.hash ‖ right.sums), sums added
// Amounts and sums are 16-byte big-endian unsigned integers; a missing right child is the empty node (32 zero bytes,
// all sums zero). A node is kept as one buffer, its hash then its sums: the very bytes a parent hashes.
import { hash } from 'node:crypto'

export const FORMAT = 'solpledge-pol-v1'
const TAG_USER = Buffer.from(`${FORMAT}:user`)
const TAG_LEAF = Buffer.from(`${FORMAT}:leaf`)
const TAG_NODE = Buffer.from(`${FORMAT}:node`)
export const HASH_BYTES = 32
export const SUM_BYTES = 16
const MAX_SUM = (1n << 128n) - 1n

/** Bytes of a node of a tree of `assets` assets: its hash and one sum per asset. */
export const nodeBytes = (assets: number) => HASH_BYTES + SUM_BYTES * assets

const sha256 = (data: Buffer) => hash('sha256', data, 'buffer') as unknown as Buffer

// One scratch buffer per kind of hash input, filled in place: a snapshot hashes millions of small inputs, and
// allocating each one cost more than hashing it.
const userInput = Buffer.alloc(TAG_USER.length + 64)
TAG_USER.copy(userInput)

export function commitment(address: Uint8Array, salt: Uint8Array): Buffer {
  if (address.length !== 32 || salt.length !== 32) throw new Error('pol: an address and a salt are 32 bytes')
  userInput.set(address, TAG_USER.length)
  userInput.set(salt, TAG_USER.length + 32)
  return sha256(userInput)
}

const scratch = new Map<number, Buffer>()
/** A scratch buffer of `length` bytes that starts with `tag`. */
function input(tag: Buffer, length: number): Buffer {
  const key = tag === TAG_LEAF ? -length : length
  let buffer = scratch.get(key)
  if (!buffer) {
    buffer = Buffer.alloc(length)
    tag.copy(buffer)
    scratch.set(key, buffer)
  }
  return buffer
}

/** The leaf of a user: its hash and the amounts as its sums. */
export function leafNode(userCommitment: Uint8Array, amounts: readonly bigint[]): Buffer {
  const node = Buffer.alloc(nodeBytes(amounts.length))
  for (const [i, amount] of amounts.entries()) writeSum(node, HASH_BYTES + i * SUM_BYTES, amount)
  const data = input(TAG_LEAF, TAG_LEAF.length + node.length)
  data.set(userCommitment, TAG_LEAF.length)
  node.copy(data, TAG_LEAF.length + HASH_BYTES, HASH_BYTES)
  sha256(data).copy(node, 0)
  return node
}

/** The parent of two nodes of the same tree. */
export function parentNode(left: Buffer, right: Buffer): Buffer {
  const node = Buffer.allocUnsafe(left.length)
  // Sums 32 bits at a time with the carry, from the last byte of each sum up: plain numbers, no bigint.
  for (let at = HASH_BYTES; at < left.length; at += SUM_BYTES) {
    let carry = 0
    for (let word = at + SUM_BYTES - 4; word >= at; word -= 4) {
      const sum = left.readUInt32BE(word) + right.readUInt32BE(word) + carry
      node.writeUInt32BE(sum >>> 0, word)
      carry = sum > 0xffffffff ? 1 : 0
    }
    if (carry) throw new Error('pol: a sum exceeds 128 bits')
  }
  const data = input(TAG_NODE, TAG_NODE.length + 2 * left.length)
  left.copy(data, TAG_NODE.length)
  right.copy(data, TAG_NODE.length + left.length)
  sha256(data).copy(node, 0)
  return node
}

export const emptyNode = (assets: number) => Buffer.alloc(nodeBytes(assets))

export function writeSum(node: Buffer, at: number, amount: bigint) {
  if (amount < 0n || amount > MAX_SUM) throw new Error('pol: an amount is outside 0 … 2^128 − 1')
  node.writeBigUInt64BE(amount >> 64n, at)
  node.writeBigUInt64BE(amount & 0xffffffffffffffffn, at + 8)
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const DIGIT = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE58.length; i++) DIGIT[BASE58.charCodeAt(i)] = i

/**
 * The 32 raw bytes of a base58 address: eight 32-bit limbs, multiply-and-add per character (a general base58 decoder
 * took 34 µs an address, this about 1). Throws unless the text is the canonical base58 of exactly 32 bytes.
 */
export function addressBytes(address: string): Buffer {
  const limbs = new Uint32Array(8)
  for (let i = 0; i < address.length; i++) {
    const code = address.charCodeAt(i)
    let carry = code < 128 ? (DIGIT[code] as number) : -1
    if (carry < 0) throw new Error(`pol: ${address} is not base58`)
    for (let j = 7; j >= 0; j--) {
      const value = (limbs[j] as number) * 58 + carry
      limbs[j] = value >>> 0
      carry = Math.floor(value / 0x100000000)
    }
    if (carry !== 0) throw new Error(`pol: ${address} is more than 32 bytes`)
  }
  const bytes = Buffer.alloc(32)
  for (let j = 0; j < 8; j++) bytes.writeUInt32BE(limbs[j] as number, 4 * j)
  let zeros = 0
  while (zeros < address.length && address[zeros] === '1') zeros++
  let zeroBytes = 0
  while (zeroBytes < 32 && bytes[zeroBytes] === 0) zeroBytes++
  if (zeros !== zeroBytes) throw new Error(`pol: ${address} is not the address of 32 bytes`)
  return bytes
}

/** A node's hash (lowercase hex) and sums (decimal strings), as the API shows it. */
export function nodeJson(node: Uint8Array): { hash: string; sums: string[] } {
  const buffer = Buffer.from(node.buffer, node.byteOffset, node.byteLength)
  const sums: string[] = []
  for (let at = HASH_BYTES; at < buffer.length; at += SUM_BYTES)
    sums.push(((buffer.readBigUInt64BE(at) << 64n) | buffer.readBigUInt64BE(at + 8)).toString())
  return { hash: buffer.subarray(0, HASH_BYTES).toString('hex'), sums }
}

/** The number of nodes on each level of a tree of `leaves` leaves, the leaves first and the root's level last. */
export function levelSizes(leaves: number): number[] {
  const sizes = [leaves]
  for (let size = leaves; size > 1; ) {
    size = Math.ceil(size / 2)
    sizes.push(size)
  }
  return sizes
}

/**
 * Builds the tree from its leaves given in order, holding one pending node per level and one chunk being filled per
 * level: memory is flat in the number of leaves. Full chunks of the levels above the leaves (level 1 = their parents)
 * wait in `ready` until the caller stores them (`take`); `finish` completes the last ones and returns the root.
 */
export class TreeBuilder {
  private readonly pending: (Buffer | null)[] = []
  private readonly counts: number[] = []
  private readonly chunks: Buffer[][] = []
  private ready: { level: number; chunk: number; nodes: Buffer }[] = []

  constructor(
    private readonly assets: number,
    private readonly chunkNodes: number,
  ) {}

  push(leaf: Buffer): void {
    this.add(0, leaf)
  }

  /** The chunks completed since the last call. */
  take(): { level: number; chunk: number; nodes: Buffer }[] {
    const ready = this.ready
    this.ready = []
    return ready
  }

  private add(level: number, node: Buffer): void {
    for (let at = level, current = node; ; at++) {
      this.counts[at] = (this.counts[at] ?? 0) + 1
      if (at > 0) {
        const chunk = this.chunks[at] ?? []
        this.chunks[at] = chunk
        chunk.push(current)
        if (chunk.length === this.chunkNodes) this.flush(at)
      }
      const left = this.pending[at] ?? null
      if (left === null) {
        this.pending[at] = current
        return
      }
      this.pending[at] = null
      current = parentNode(left, current)
    }
  }

  private flush(level: number) {
    const chunk = this.chunks[level] ?? []
    if (chunk.length === 0) return
    this.chunks[level] = []
    const index = Math.floor(((this.counts[level] ?? 0) - chunk.length) / this.chunkNodes)
    this.ready.push({ level, chunk: index, nodes: Buffer.concat(chunk) })
  }

  /** Pairs every last odd node with the empty node up to the root, completes the last chunks, returns the root. */
  finish(): { root: Buffer; leaves: number } {
    const leaves = this.counts[0] ?? 0
    let root: Buffer = emptyNode(this.assets)
    for (let level = 0; leaves > 0; level++) {
      const left = this.pending[level] ?? null
      if ((this.counts[level] ?? 0) === 1) {
        root = left as Buffer
        break
      }
      if (left !== null) {
        this.pending[level] = null
        this.add(level + 1, parentNode(left, emptyNode(this.assets)))
      }
    }
    for (let level = 1; level < this.chunks.length; level++) this.flush(level)
    return { root, leaves }
  }
}

/** Where the sibling of node `index` of each level is, from the leaves up: [level, index] or null (the empty node). */
export function siblingPositions(leaves: number, leafIndex: number): ([number, number] | null)[] {
  const sizes = levelSizes(leaves)
  const positions: ([number, number] | null)[] = []
  let index = leafIndex
  for (let level = 0; level < sizes.length - 1; level++) {
    const sibling = index ^ 1
    positions.push(sibling < (sizes[level] as number) ? [level, sibling] : null)
    index >>= 1
  }
  return positions
}
