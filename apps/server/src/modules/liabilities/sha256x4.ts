// A multi-buffer SHA-256 for the proof-of-liabilities tree (docs/proof-of-liabilities-server.md): four
// independent messages hashed at once, one per 32-bit lane of WebAssembly SIMD (v128), and the hashing of a whole
// subtree (salted commitments, leaves, sums and inner nodes of format v1) in one call. The module's bytes are emitted
// here, from this file, when a tree is hashed: nothing is built or committed beforehand.
//
// Messages of one call share a length and a constant prefix (the 21-byte domain string): the bytes of a 64-byte block
// are read at (data − prefix length + offset) and masked, and a table of (mask, constant) per word puts the prefix,
// the 0x80 byte and the bit length in place — no message is ever copied or padded in memory.

/** The WebAssembly global, as far as it is used here (Node has it; the types of Node 20 do not declare it). */
export type WasmModule = { readonly wasm: unique symbol }
export const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => WasmModule
      Instance: new (module: WasmModule) => { exports: Record<string, unknown> }
    }
  }
).WebAssembly

const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]

/** Blocks of SHA-256 for a message of `length` bytes (with its 0x80 byte and 8-byte bit length). */
export const blocksOf = (length: number) => Math.ceil((length + 9) / 64)

/**
 * The (mask, constant) pair of every 32-bit big-endian word of the padded message, 8 bytes a word: bytes under
 * `prefix.length` are the prefix's, then `length − prefix.length` bytes of data, then the padding.
 */
export function padTable(prefix: Uint8Array, length: number): Uint8Array {
  const words = blocksOf(length) * 16
  const table = new DataView(new ArrayBuffer(words * 8))
  for (let word = 0; word < words; word++) {
    let mask = 0
    let constant = 0
    for (let j = 0; j < 4; j++) {
      const at = 4 * word + j
      const shift = 24 - 8 * j
      if (at < prefix.length) constant |= (prefix[at] as number) << shift
      else if (at < length) mask |= 0xff << shift
      else if (at === length) constant |= 0x80 << shift
    }
    if (word === words - 1) constant = (length * 8) >>> 0
    if (word === words - 2) constant = Math.floor((length * 8) / 2 ** 32)
    table.setUint32(8 * word, mask >>> 0, true)
    table.setUint32(8 * word + 4, constant >>> 0, true)
  }
  return new Uint8Array(table.buffer)
}

// ── A minimal WebAssembly encoder ──
const I32 = 0x7f
const I64 = 0x7e
const V128 = 0x7b

function unsigned(value: number): number[] {
  const bytes: number[] = []
  let rest = value >>> 0
  do {
    const byte = rest & 0x7f
    rest >>>= 7
    bytes.push(rest === 0 ? byte : byte | 0x80)
  } while (rest !== 0)
  return bytes
}

function signed(value: number): number[] {
  const bytes: number[] = []
  let rest = value | 0
  for (;;) {
    const byte = rest & 0x7f
    rest >>= 7
    if ((rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0)) {
      bytes.push(byte)
      return bytes
    }
    bytes.push(byte | 0x80)
  }
}

const vector = (items: number[][]) => [...unsigned(items.length), ...items.flat()]
const section = (id: number, body: number[]) => [id, ...unsigned(body.length), ...body]
const name = (text: string) => vector([...Buffer.from(text)].map((byte) => [byte]))

/** The body of one function: its locals (after the parameters) and its instructions. */
class Body {
  readonly code: number[] = []
  private readonly locals: number[] = []
  constructor(private readonly params: number) {}

  local(type: number): number {
    this.locals.push(type)
    return this.params + this.locals.length - 1
  }
  op(...bytes: number[]) {
    this.code.push(...bytes)
    return this
  }
  get = (index: number) => this.op(0x20, ...unsigned(index))
  set = (index: number) => this.op(0x21, ...unsigned(index))
  tee = (index: number) => this.op(0x22, ...unsigned(index))
  i32 = (value: number) => this.op(0x41, ...signed(value))
  simd = (opcode: number, ...immediates: number[]) => this.op(0xfd, ...unsigned(opcode), ...immediates)
  /** A SIMD memory instruction: alignment 1, `offset`, then the lane for the lane instructions. */
  mem = (opcode: number, offset: number, lane?: number) =>
    this.simd(opcode, 0, ...unsigned(offset), ...(lane === undefined ? [] : [lane]))
  v128 = (bytes: number[]) => this.simd(0x0c, ...bytes)
  splat = (value: number) => this.v128([0, 1, 2, 3].flatMap(() => [0, 8, 16, 24].map((s) => (value >>> s) & 0xff)))

  encode(): number[] {
    const groups: number[][] = []
    for (const type of this.locals) {
      const last = groups.at(-1)
      if (last && last[1] === type) last[0] = (last[0] as number) + 1
      else groups.push([1, type])
    }
    const body = [
      ...vector(groups.map(([count, type]) => [...unsigned(count as number), type as number])),
      ...this.code,
    ]
    return [...unsigned(body.length + 1), ...body, 0x0b]
  }
}

// Opcodes used below.
const op = {
  if: 0x04,
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  call: 0x10,
  select: 0x1b,
  i32eqz: 0x45,
  i32eq: 0x46,
  i32ltU: 0x49,
  i64ltU: 0x54,
  i32add: 0x6a,
  i32sub: 0x6b,
  i32mul: 0x6c,
  i32and: 0x71,
  i32or: 0x72,
  i32shl: 0x74,
  i32shrU: 0x76,
  i64add: 0x7c,
  i64extendI32U: 0xad,
}
const simd = {
  load: 0x00,
  load32Splat: 0x09,
  store: 0x0b,
  swizzle: 0x0e,
  i64x2Extract: 0x1d,
  i64x2Replace: 0x1e,
  and: 0x4e,
  or: 0x50,
  xor: 0x51,
  bitselect: 0x52,
  load32Lane: 0x56,
  store32Lane: 0x5a,
  shl: 0xab,
  shrU: 0xad,
  add: 0xae,
}
const BSWAP32 = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12]
const REVERSE = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]

/**
 * hash(n, in, inStride, out, outStride, blocks, table): SHA-256 of n messages, message i read from
 * in + i·inStride (the data's address minus the prefix's length) through `blocks` blocks of the (mask, constant)
 * table at `table`, its 32 bytes written at out + i·outStride. Four at a time; a last group of fewer repeats the last
 * message in its spare lanes. Every message is read whole before its hash is written, so out may overlap in.
 */
function hashFunction(): Body {
  const f = new Body(7)
  const [n, input, inStride, output, outStride, blocks, table] = [0, 1, 2, 3, 4, 5, 6]
  const i = f.local(I32)
  const k = f.local(I32)
  const block = f.local(I32)
  const row = f.local(I32)
  const p = [0, 1, 2, 3].map(() => f.local(I32))
  const q = [0, 1, 2, 3].map(() => f.local(I32))
  const state = IV.map(() => f.local(V128))
  const saved = IV.map(() => f.local(V128))
  const w = Array.from({ length: 16 }, () => f.local(V128))
  const t1 = f.local(V128)
  const tmp = f.local(V128)

  const rotr = (x: number, bits: number) => {
    f.get(x)
      .i32(bits)
      .simd(simd.shrU)
      .get(x)
      .i32(32 - bits)
      .simd(simd.shl)
      .simd(simd.or)
  }
  const big = (x: number, a: number, b: number, c: number) => {
    rotr(x, a)
    rotr(x, b)
    f.simd(simd.xor)
    rotr(x, c)
    f.simd(simd.xor)
  }
  const small = (x: number, a: number, b: number, shift: number) => {
    rotr(x, a)
    rotr(x, b)
    f.simd(simd.xor).get(x).i32(shift).simd(simd.shrU).simd(simd.xor)
  }

  f.get(n).op(op.i32eqz, op.if, 0x40, op.return, op.end)
  f.i32(0).set(i)
  f.op(op.loop, 0x40)
  for (let lane = 0; lane < 4; lane++) {
    // k = min(i + lane, n − 1)
    f.get(i).i32(lane).op(op.i32add).tee(k)
    f.get(n).i32(1).op(op.i32sub)
    f.get(k).get(n).op(op.i32ltU, op.select).set(k)
    f.get(k)
      .get(inStride)
      .op(op.i32mul)
      .get(input)
      .op(op.i32add)
      .set(p[lane] as number)
    f.get(k)
      .get(outStride)
      .op(op.i32mul)
      .get(output)
      .op(op.i32add)
      .set(q[lane] as number)
  }
  for (const [s, value] of IV.entries()) f.splat(value).set(state[s] as number)
  f.get(blocks).set(block)
  f.get(table).set(row)
  f.op(op.loop, 0x40)
  for (let word = 0; word < 16; word++) {
    f.get(p[3] as number)
      .get(p[2] as number)
      .get(p[1] as number)
      .get(p[0] as number)
    f.mem(simd.load32Splat, 4 * word)
    for (let lane = 1; lane < 4; lane++) f.mem(simd.load32Lane, 4 * word, lane)
    f.v128(BSWAP32).simd(simd.swizzle)
    f.get(row)
      .mem(simd.load32Splat, 8 * word)
      .simd(simd.and)
    f.get(row)
      .mem(simd.load32Splat, 8 * word + 4)
      .simd(simd.or)
    f.set(w[word] as number)
  }
  for (let s = 0; s < 8; s++) f.get(state[s] as number).set(saved[s] as number)
  let [a, b, c, d, e, ff, g, h] = state as [number, number, number, number, number, number, number, number]
  for (let round = 0; round < 64; round++) {
    const wt = w[round % 16] as number
    if (round >= 16) {
      small(w[(round - 2) % 16] as number, 17, 19, 10)
      f.get(w[(round - 7) % 16] as number).simd(simd.add)
      small(w[(round - 15) % 16] as number, 7, 18, 3)
      f.simd(simd.add).get(wt).simd(simd.add).set(wt)
    }
    // T1 = h + Σ1(e) + Ch(e, f, g) + K + W; Ch = bitselect(f, g, e)
    f.get(h)
    big(e, 6, 11, 25)
    f.simd(simd.add).get(ff).get(g).get(e).simd(simd.bitselect).simd(simd.add)
    f.get(wt)
      .simd(simd.add)
      .splat(K[round] as number)
      .simd(simd.add)
      .tee(t1)
    // e' = d + T1 (into d), a' = T1 + Σ0(a) + Maj(a, b, c) (into h); Maj = bitselect(c, b, a ^ b)
    f.get(d).simd(simd.add).set(d)
    f.get(t1)
    big(a, 2, 13, 22)
    f.simd(simd.add).get(c).get(b).get(a).get(b).simd(simd.xor).simd(simd.bitselect).simd(simd.add).set(h)
    ;[a, b, c, d, e, ff, g, h] = [h, a, b, c, d, e, ff, g]
  }
  for (let s = 0; s < 8; s++)
    f.get(state[s] as number)
      .get(saved[s] as number)
      .simd(simd.add)
      .set(state[s] as number)
  for (const x of p) f.get(x).i32(64).op(op.i32add).set(x)
  f.get(row).i32(128).op(op.i32add).set(row)
  f.get(block).i32(1).op(op.i32sub).tee(block).op(op.brIf, 0, op.end)
  for (let s = 0; s < 8; s++) {
    f.get(state[s] as number)
      .v128(BSWAP32)
      .simd(simd.swizzle)
      .set(tmp)
    for (let lane = 0; lane < 4; lane++)
      f.get(q[lane] as number)
        .get(tmp)
        .mem(simd.store32Lane, 4 * s, lane)
  }
  f.get(i).i32(4).op(op.i32add).tee(i).get(n).op(op.i32ltU, op.brIf, 0, op.end)
  return f
}

/**
 * sums(pairs, src, dst, assets): node i of dst gets the sums of nodes 2i and 2i + 1 of src (16-byte big-endian, per
 * asset). Returns 1 when a sum passes 2^128 − 1.
 */
function sumsFunction(node: number, assets: number): Body {
  const f = new Body(3)
  const [pairs, src, dst] = [0, 1, 2]
  const i = f.local(I32)
  const overflow = f.local(I32)
  const low = f.local(I64)
  const high = f.local(I64)
  const sum = f.local(I64)
  const carry = f.local(I64)
  const x = f.local(V128)
  const y = f.local(V128)
  f.i32(0).set(i)
  f.op(op.loop, 0x40)
  for (let asset = 0; asset < assets; asset++) {
    const at = 32 + 16 * asset
    f.get(src).mem(simd.load, at).v128(REVERSE).simd(simd.swizzle).set(x)
    f.get(src)
      .mem(simd.load, at + node)
      .v128(REVERSE)
      .simd(simd.swizzle)
      .set(y)
    f.get(x).simd(simd.i64x2Extract, 0).tee(low)
    f.get(y).simd(simd.i64x2Extract, 0).op(op.i64add).tee(sum)
    f.get(low).op(op.i64ltU, op.i64extendI32U).set(carry)
    f.get(x).simd(simd.i64x2Extract, 1).tee(high)
    f.get(y).simd(simd.i64x2Extract, 1).op(op.i64add).tee(low)
    f.get(high).op(op.i64ltU).get(overflow).op(op.i32or).set(overflow)
    f.get(low).get(carry).op(op.i64add).tee(high)
    f.get(low).op(op.i64ltU).get(overflow).op(op.i32or).set(overflow)
    f.get(dst).get(x).get(sum).simd(simd.i64x2Replace, 0).get(high).simd(simd.i64x2Replace, 1)
    f.v128(REVERSE).simd(simd.swizzle).mem(simd.store, at)
  }
  f.get(src)
    .i32(2 * node)
    .op(op.i32add)
    .set(src)
  f.get(dst).i32(node).op(op.i32add).set(dst)
  f.get(i).i32(1).op(op.i32add).tee(i).get(pairs).op(op.i32ltU, op.brIf, 0, op.end)
  f.get(overflow)
  return f
}

/** Format v1's name, the start of its three domain strings (./tree.ts). */
export const FORMAT = 'solpledge-pol-v1'
/** Bytes of a domain string: `${FORMAT}:user`, `:leaf`, `:node`. */
const TAG = FORMAT.length + 5
const encoder = new TextEncoder()

/** Where the subtree module keeps its inputs: the users (address ‖ salt, 64 bytes each) and the leaves. */
export interface SubtreeLayout {
  /** Bytes of a node: hash and sums. */
  node: number
  /** Leaves per subtree (2^levels). */
  leaves: number
  levels: number
  users: number
  nodes: number
}

/**
 * The module hashing the subtree of up to 2^levels leaves of a tree of `assets` assets. Its export
 * subtree(n, first, levels): the users' 64 bytes (address ‖ salt) at layout.users and the leaves at layout.nodes
 * (node-sized, the amounts after the 32 bytes of the hash) in, the commitments and leaf hashes written in place,
 * then each level above written after the one below (room for its nodes and an empty one), pairing a last odd node
 * with the empty node, up to `levels` levels — or, with `first` set, until a level of one node (the tree's root).
 * Returns the levels computed, plus 0x10000 when a sum passed 2^128 − 1.
 */
export function subtreeModule(assets: number, levels: number): { bytes: Uint8Array; layout: SubtreeLayout } {
  const node = 32 + 16 * assets
  const leaves = 2 ** levels
  const tables = [
    padTable(encoder.encode(`${FORMAT}:user`), TAG + 64),
    padTable(encoder.encode(`${FORMAT}:leaf`), TAG + node),
    padTable(encoder.encode(`${FORMAT}:node`), TAG + 2 * node),
  ]
  // The round constants at 0 (loaded where they are added: cheaper than a v128 constant), then the tables.
  const constants = new Uint8Array(new Uint32Array(K).buffer)
  const tableAt: number[] = []
  let end = constants.length
  for (const table of tables) {
    tableAt.push(end)
    end += table.length
  }
  const users = end + 64
  const nodes = users + 64 * leaves + 64
  // Every level with its spare empty node, and room for the last block's reads past the end.
  const top = nodes + (2 * leaves + 2 * levels + 4) * node + 256
  const pages = Math.ceil(top / 65536)

  const hash = hashFunction()
  const sums = sumsFunction(node, assets)
  const f = new Body(3)
  const [n, first, maxLevels] = [0, 1, 2]
  const m = f.local(I32)
  const k = f.local(I32)
  const src = f.local(I32)
  const dst = f.local(I32)
  const pairs = f.local(I32)
  const overflow = f.local(I32)
  const callHash = (count: () => void, input: () => void, stride: number, out: () => void, table: number) => {
    count()
    input()
    f.i32(stride)
    out()
    f.i32(node)
      .i32((tables[table] as Uint8Array).length / 128)
      .i32(tableAt[table] as number)
      .op(op.call, 0)
  }
  callHash(
    () => f.get(n),
    () => f.i32(users - TAG),
    64,
    () => f.i32(nodes),
    0,
  )
  callHash(
    () => f.get(n),
    () => f.i32(nodes - TAG),
    node,
    () => f.i32(nodes),
    1,
  )
  f.get(n).set(m).i32(0).set(k).i32(nodes).set(src).i32(0).set(overflow)
  f.op(op.block, 0x40, op.loop, 0x40)
  f.get(first).get(m).i32(2).op(op.i32ltU, op.i32and, op.brIf, 1)
  f.get(k).get(maxLevels).op(op.i32eq, op.brIf, 1)
  // An odd level: the empty node after its last one.
  f.get(m).i32(1).op(op.i32and, op.if, 0x40)
  f.get(src).get(m).i32(node).op(op.i32mul, op.i32add).i32(0).i32(node).op(0xfc, 0x0b, 0x00, op.end)
  f.get(m).i32(1).op(op.i32add).i32(1).op(op.i32shrU).set(pairs)
  f.get(src).get(m).i32(1).op(op.i32add).i32(node).op(op.i32mul, op.i32add).set(dst)
  f.get(pairs).get(src).get(dst).op(op.call, 1).get(overflow).op(op.i32or).set(overflow)
  callHash(
    () => f.get(pairs),
    () => f.get(src).i32(TAG).op(op.i32sub),
    2 * node,
    () => f.get(dst),
    2,
  )
  f.get(dst).set(src).get(pairs).set(m).get(k).i32(1).op(op.i32add).set(k)
  f.op(op.br, 0, op.end, op.end)
  f.get(overflow).i32(16).op(op.i32shl).get(k).op(op.i32or)

  const data = [constants, ...tables].flatMap((table) => [...table])
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(
      1,
      vector([
        [0x60, ...vector(Array(7).fill([I32])), 0x00],
        [0x60, ...vector(Array(3).fill([I32])), 0x01, I32],
      ]),
    ),
    ...section(3, vector([[0], [1], [1]])),
    ...section(5, vector([[0x00, ...unsigned(pages)]])),
    ...section(
      7,
      vector([
        [...name('memory'), 0x02, 0],
        [...name('hash'), 0x00, 0],
        [...name('subtree'), 0x00, 2],
      ]),
    ),
    ...section(10, vector([hash.encode(), sums.encode(), f.encode()])),
    ...section(11, vector([[0x00, 0x41, 0x00, 0x0b, ...unsigned(data.length), ...data]])),
  ]
  return { bytes: new Uint8Array(bytes), layout: { node, leaves, levels, users, nodes } }
}
