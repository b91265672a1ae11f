import { createHash, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { blocksOf, FORMAT, padTable, subtreeModule, wasm } from './sha256x4.ts'

const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  return hash.digest('hex')
}

describe('the multi-buffer SHA-256', () => {
  const { bytes } = subtreeModule(2, 10)
  const { exports } = new wasm.Instance(new wasm.Module(bytes))
  const hash = exports.hash as (...args: number[]) => void
  const memory = new Uint8Array((exports.memory as { buffer: ArrayBuffer }).buffer)
  // Free room above the module's own data: a table, the messages (a stride of 256 bytes), the hashes.
  const [TABLE, DATA, OUT] = [150_000, 160_000, 200_000]

  /** Hashes `messages` (one length) in one call, each read after a constant `prefix` that is not in memory. */
  function hashAll(prefix: Uint8Array, messages: Buffer[], length: number, outStride = 32) {
    memory.set(padTable(prefix, length), TABLE)
    memory.fill(0xa5, DATA - 64, OUT)
    for (const [i, message] of messages.entries()) memory.set(message, DATA + 256 * i)
    hash(messages.length, DATA - prefix.length, 256, OUT, outStride, blocksOf(length), TABLE)
    return messages.map((_, i) => Buffer.from(memory.subarray(OUT + outStride * i, OUT + outStride * i + 32)))
  }

  it('hashes every length of one to three blocks as node:crypto does, whatever the number of lanes', () => {
    for (let length = 0; length <= 3 * 64 - 9; length++) {
      const count = 1 + (length % 9)
      const messages = Array.from({ length: count }, () => randomBytes(length))
      const hashes = hashAll(new Uint8Array(0), messages, length)
      for (const [i, message] of messages.entries())
        expect(hashes[i]?.toString('hex'), `${length}`).toBe(sha256(message))
    }
  })

  it('hashes the tree’s inputs after their domain string: commitments, leaves and nodes of 1 to 4 assets', () => {
    for (const [kind, data] of [
      ['user', 64],
      ...[1, 2, 3, 4].flatMap((assets) => [
        ['leaf', 32 + 16 * assets],
        ['node', 2 * (32 + 16 * assets)],
      ]),
    ] as [string, number][]) {
      const prefix = Buffer.from(`${FORMAT}:${kind}`)
      for (const count of [1, 2, 3, 4, 5, 7, 8, 13]) {
        const messages = Array.from({ length: count }, () => randomBytes(data))
        const hashes = hashAll(prefix, messages, prefix.length + data, 40)
        for (const [i, message] of messages.entries())
          expect(hashes[i]?.toString('hex'), `${kind} ${data} × ${count}`).toBe(sha256(prefix, message))
      }
    }
  })

  it('writes nothing for no message and may write each hash over its own message', () => {
    memory.fill(7, OUT, OUT + 64)
    hash(0, DATA, 256, OUT, 32, 1, TABLE)
    expect(memory.subarray(OUT, OUT + 64).every((byte) => byte === 7)).toBe(true)
    const messages = Array.from({ length: 6 }, () => randomBytes(85))
    memory.set(padTable(new Uint8Array(0), 85), TABLE)
    for (const [i, message] of messages.entries()) memory.set(message, DATA + 96 * i)
    hash(messages.length, DATA, 96, DATA, 96, blocksOf(85), TABLE)
    for (const [i, message] of messages.entries())
      expect(Buffer.from(memory.subarray(DATA + 96 * i, DATA + 96 * i + 32)).toString('hex')).toBe(sha256(message))
  })
})
