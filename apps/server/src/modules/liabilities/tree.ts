// The Merkle sum tree of proof of liabilities, format v1 (docs/proof-of-liabilities.md):
//   commitment = SHA-256("solpledge-pol-v1:user" ‖ address (32 raw bytes) ‖ salt (32 bytes))
//   leaf       = SHA-256("solpledge-pol-v1:leaf" ‖ commitment ‖ amount₁ ‖ … ‖ amountₙ), sums = the amounts
//   node       = SHA-256("solpledge-pol-v1:node" ‖ left.hash ‖ left.sums ‖ right.hash ‖ right.sums), sums added
// Amounts and sums are 16-byte big-endian unsigned integers; a missing right child is the empty node (32 zero bytes,
// all sums zero). A node is kept as one buffer, its hash then its sums: the very bytes a parent hashes.
import { hash, randomFillSync } from 'node:crypto'
import { type SubtreeResult, subtreeHasher } from './hash-pool.ts'
import { FORMAT } from './sha256x4.ts'

export { FORMAT }

const TAG_NODE = Buffer.from(`${FORMAT}:node`)
export const HASH_BYTES = 32
export const SUM_BYTES = 16
const MAX_SUM = (1n << 128n) - 1n
const MAX_64 = (1n << 64n) - 1n

/** Bytes of a node of a tree of `assets` assets: its hash and one sum per asset. */
export const nodeBytes = (assets: number) => HASH_BYTES + SUM_BYTES * assets

const sha256 = (data: Buffer) => hash('sha256', data, 'buffer') as unknown as Buffer

/** The parent of two nodes of the same tree (the levels above the workers' subtrees: a few nodes per 1024 users). */
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
  sha256(Buffer.concat([TAG_NODE, left, right])).copy(node, 0)
  return node
}

export const emptyNode = (assets: number) => Buffer.alloc(nodeBytes(assets))

/**
 * An amount (bigint, or decimal text as the database gives it) as 16 bytes big-endian at `at`: text of up to 15 digits
 * without a bigint, a bigint below 2^64 in one 64-bit write. Throws outside 0 … 2^128 − 1.
 */
export function writeAmount(view: DataView, at: number, amount: bigint | string) {
  if (typeof amount === 'bigint' && amount >= 0n && amount <= MAX_64) {
    view.setBigUint64(at, 0n)
    view.setBigUint64(at + 8, amount)
    return
  }
  if (typeof amount === 'string' && amount.length > 0 && amount.length <= 15) {
    let value = 0
    for (let i = 0; i < amount.length && value >= 0; i++) {
      const digit = amount.charCodeAt(i) - 48
      value = digit >= 0 && digit <= 9 ? value * 10 + digit : -1
    }
    if (value >= 0) {
      view.setUint32(at, 0)
      view.setUint32(at + 4, 0)
      view.setUint32(at + 8, Math.floor(value / 0x100000000))
      view.setUint32(at + 12, value >>> 0)
      return
    }
  }
  const value = BigInt(amount)
  if (value < 0n || value > MAX_SUM) throw new Error('pol: an amount is outside 0 … 2^128 − 1')
  view.setBigUint64(at, value >> 64n)
  view.setBigUint64(at + 8, BigInt.asUintN(64, value))
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const DIGIT = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE58.length; i++) DIGIT[BASE58.charCodeAt(i)] = i
const limbs = new Uint32Array(8)

/**
 * The 32 raw bytes of a base58 address: eight 32-bit limbs, multiply-and-add per character (a general base58 decoder
 * took 34 µs an address, this about 1). Throws unless the text is the canonical base58 of exactly 32 bytes. Writes
 * them at `offset` of `bytes` (a new buffer by default) and returns that buffer.
 */
export function addressBytes(address: string, bytes: Buffer = Buffer.alloc(32), offset = 0): Buffer {
  limbs.fill(0)
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
  for (let j = 0; j < 8; j++) bytes.writeUInt32BE(limbs[j] as number, offset + 4 * j)
  let zeros = 0
  while (zeros < address.length && address[zeros] === '1') zeros++
  let zeroBytes = 0
  while (zeroBytes < 32 && bytes[offset + zeroBytes] === 0) zeroBytes++
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

/** Leaves per subtree hashed by one worker: 1024, ten levels (./hash-pool.ts). */
export const SUBTREE_LEVELS = 10

/** A hashed chunk of leaves, in order: each user's address and salt (64 bytes), and the leaves (hash ‖ amounts). */
export interface LeafChunk {
  count: number
  users: Buffer
  leaves: Buffer
}

/**
 * Builds the tree from its users given in order, memory flat in their number. Users are gathered in chunks of
 * 2^SUBTREE_LEVELS; the worker threads hash a chunk's salted commitments, leaves and levels up to its root
 * (./sha256x4.ts), and the levels above those roots, a few nodes, are hashed here as the roots come: one pending node
 * per level. Every level above the leaves is cut in stored chunks of `chunkNodes` nodes (level 1 = the leaves'
 * parents); `take` returns the leaves hashed and the stored chunks completed since the last call, `finish` the root.
 */
export class TreeBuilder {
  private readonly node: number
  private readonly hasher: ReturnType<typeof subtreeHasher>
  private readonly pending: (Buffer | null)[] = []
  private readonly counts: number[] = []
  private readonly filling: { bytes: Buffer; nodes: number; chunk: number }[] = []
  private ready: { level: number; chunk: number; nodes: Buffer }[] = []
  private hashed: LeafChunk[] = []
  /** The leaves returned by the last take, then their buffers for new chunks (a snapshot reuses a few, not 2000). */
  private lent: LeafChunk[] = []
  private spare: { users: Buffer; leaves: Buffer }[] = []
  private running: Promise<SubtreeResult>[] = []
  /** The chunks sent so far, accepted in order (a take may be called before the last one returned). */
  private accepted: Promise<void> = Promise.resolve()
  private chunks = 0
  private users: Buffer
  private leaves: Buffer
  private view: DataView
  private count = 0
  private root: Buffer | null = null

  constructor(
    private readonly assets: number,
    private readonly chunkNodes: number,
    private readonly levels = SUBTREE_LEVELS,
  ) {
    this.node = nodeBytes(assets)
    this.hasher = subtreeHasher(assets, levels)
    this.users = this.leaves = Buffer.alloc(0)
    this.view = new DataView(this.leaves.buffer)
    this.next()
  }

  /** The next user: their address (base58 or its 32 bytes) and amounts; their salt is drawn here. */
  push(address: string | Uint8Array, amounts: readonly (bigint | string)[]): void {
    if (amounts.length !== this.assets) throw new Error(`pol: ${amounts.length} amounts for ${this.assets} assets`)
    const at = this.count
    if (typeof address === 'string') addressBytes(address, this.users, 64 * at)
    else if (address.length === 32) this.users.set(address, 64 * at)
    else throw new Error('pol: an address is 32 bytes')
    for (let i = 0; i < amounts.length; i++)
      writeAmount(this.view, this.node * at + HASH_BYTES + SUM_BYTES * i, amounts[i] as bigint | string)
    if (++this.count === this.hasher.layout.leaves) this.submit()
  }

  /**
   * Waits for the chunks sent to the workers so far; returns the leaves hashed and the stored chunks completed since
   * the last call. Users may be pushed while it waits (their chunks are for the next call). The leaves' buffers are
   * used again for new users after the next call.
   */
  async take(): Promise<{ leaves: LeafChunk[]; nodes: { level: number; chunk: number; nodes: Buffer }[] }> {
    for (const { users, leaves } of this.lent)
      this.spare.push({ users: Buffer.from(users.buffer), leaves: Buffer.from(leaves.buffer) })
    this.lent = []
    await this.settle()
    const taken = { leaves: this.hashed, nodes: this.ready }
    this.lent = this.hashed
    this.hashed = []
    this.ready = []
    return taken
  }

  /** Accepts, in order, the chunks sent to the workers so far. */
  private async settle() {
    const running = this.running
    this.running = []
    this.accepted = this.accepted.then(async () => {
      for (const result of await Promise.all(running)) this.accept(result)
    })
    await this.accepted
  }

  /** Hashes the last users, pairs every last odd node with the empty node up to the root, and returns the root. */
  async finish(): Promise<{ root: Buffer; leaves: number }> {
    if (this.count > 0) this.submit()
    await this.settle()
    const leaves = this.counts[0] ?? 0
    let root = this.root ?? emptyNode(this.assets)
    for (let level = this.levels; leaves > 0 && !this.root; level++) {
      const left = this.pending[level] ?? null
      if ((this.counts[level] ?? 0) === 1) {
        root = left as Buffer
        break
      }
      if (left !== null) {
        this.pending[level] = null
        const parent = parentNode(left, emptyNode(this.assets))
        this.store(level + 1, parent)
        this.climb(level + 1, parent)
      }
    }
    for (let level = 1; level < this.filling.length; level++) this.flush(level)
    return { root, leaves }
  }

  private next() {
    // Salts are the random second half of each user's 64 bytes; the first half is overwritten by the address.
    const spare = this.spare.pop()
    this.users = randomFillSync(spare?.users ?? Buffer.allocUnsafeSlow(64 * this.hasher.layout.leaves))
    this.leaves = spare?.leaves ?? Buffer.alloc(this.node * this.hasher.layout.leaves)
    this.view = new DataView(this.leaves.buffer, this.leaves.byteOffset, this.leaves.byteLength)
    this.count = 0
  }

  private submit() {
    const job = { count: this.count, first: this.chunks++ === 0, users: this.users, leaves: this.leaves }
    this.running.push(this.hasher.hash(job))
    this.next()
  }

  /** A hashed chunk, in order: its leaves, its levels stored, its root climbing the levels above. */
  private accept(result: SubtreeResult) {
    if (result.overflow) throw new Error('pol: a sum exceeds 128 bits')
    const { count } = result
    const leaves = Buffer.from(result.leaves.buffer, 0, this.node * count)
    this.counts[0] = (this.counts[0] ?? 0) + count
    this.hashed.push({ count, users: Buffer.from(result.users.buffer, 0, 64 * count), leaves })
    const levels = Buffer.from(result.levels.buffer, 0, result.levels.byteLength)
    let at = 0
    for (const [i, size] of result.counts.entries()) {
      this.store(i + 1, levels.subarray(at, at + size * this.node))
      at += size * this.node
    }
    const top = result.counts.length === 0 ? leaves : levels.subarray(at - this.node, at)
    if (result.counts.length === this.levels) this.climb(this.levels, Buffer.from(top))
    else this.root = Buffer.from(top)
  }

  /**
   * Nodes of `level` following the ones stored so far, copied into the chunk being filled (a view would keep the
   * worker's whole buffer until the chunk is full: 1,024 of them for the level of the subtrees' roots).
   */
  private store(level: number, nodes: Buffer) {
    this.counts[level] = (this.counts[level] ?? 0) + nodes.length / this.node
    for (let at = 0; at < nodes.length; ) {
      const filling = this.filling[level] ?? {
        bytes: Buffer.allocUnsafe(this.chunkNodes * this.node),
        nodes: 0,
        chunk: 0,
      }
      this.filling[level] = filling
      const copied = nodes.copy(filling.bytes, filling.nodes * this.node, at)
      filling.nodes += copied / this.node
      at += copied
      if (filling.nodes === this.chunkNodes) this.flush(level)
    }
  }

  private flush(level: number) {
    const filling = this.filling[level]
    if (!filling || filling.nodes === 0) return
    this.ready.push({ level, chunk: filling.chunk, nodes: filling.bytes.subarray(0, filling.nodes * this.node) })
    this.filling[level] = { bytes: Buffer.allocUnsafe(this.chunkNodes * this.node), nodes: 0, chunk: filling.chunk + 1 }
  }

  /** A node of `level` (stored already) pairs with the pending one, their parent with the next level's, … */
  private climb(level: number, node: Buffer) {
    for (let at = level, current = node; ; at++) {
      const left = this.pending[at] ?? null
      if (left === null) {
        this.pending[at] = current
        return
      }
      this.pending[at] = null
      current = parentNode(left, current)
      this.store(at + 1, current)
    }
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
