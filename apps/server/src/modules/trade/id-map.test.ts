import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IdMap } from './id-map.ts'

type Op = { kind: 'set' | 'take' | 'get'; key: bigint; value: number }

/** Keys that meet in the table: small ids, strided ones (the same low bits), negatives, and ids past 2^53. */
const key = fc.oneof(
  fc.bigInt({ min: 0n, max: 200n }),
  fc.integer({ min: 0, max: 200 }).map((i) => BigInt(i) * 2n ** 16n),
  fc.integer({ min: 0, max: 200 }).map((i) => BigInt(i) * 2n ** 32n + 7n),
  fc.bigInt({ min: -50n, max: -1n }),
  fc.bigInt({ min: 2n ** 53n - 20n, max: 2n ** 53n + 20n }),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
)

/** Sets, takes and gets applied to an IdMap and to a Map side by side: every answer and the size agree. */
const agrees = (keys: fc.Arbitrary<bigint>, maxLength: number) =>
  fc.property(
    fc.array(
      fc.record({ kind: fc.constantFrom<Op['kind']>('set', 'set', 'take', 'get'), key: keys, value: fc.nat() }),
      {
        maxLength,
      },
    ),
    (ops) => {
      const map = new IdMap<number>()
      const model = new Map<bigint, number>()
      for (const op of ops) {
        if (op.kind === 'set') {
          map.set(op.key, op.value)
          model.set(op.key, op.value)
        } else if (op.kind === 'take') {
          expect(map.take(op.key)).toBe(model.get(op.key))
          model.delete(op.key)
        } else {
          expect(map.get(op.key)).toBe(model.get(op.key))
          expect(map.has(op.key)).toBe(model.has(op.key))
        }
        expect(map.size).toBe(model.size)
      }
      for (const [k, v] of model) expect(map.get(k)).toBe(v)
    },
  )

describe('IdMap', () => {
  it('behaves as a Map through sets, takes and gets, across growth and backward-shift deletion', () => {
    fc.assert(agrees(key, 400), { numRuns: 300 })
    // A few keys in a small table: probe runs that wrap around its end, emptied in every order.
    for (const max of [8n, 24n, 40n]) fc.assert(agrees(fc.bigInt({ min: 0n, max }), 80), { numRuns: 1000 })
  })

  it('keeps every live id reachable under the engine pattern: new ids in, random ones out', () => {
    const map = new IdMap<bigint>()
    const live: bigint[] = []
    let next = 1n
    let seed = 1
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed / 4294967296
    }
    for (let i = 0; i < 50_000; i++) {
      map.set(next, next)
      live.push(next++)
      if (random() < 0.45) {
        const at = Math.floor(random() * live.length)
        const id = live[at] as bigint
        live[at] = live[live.length - 1] as bigint
        live.pop()
        expect(map.take(id)).toBe(id)
      }
    }
    expect(map.size).toBe(live.length)
    for (const id of live) expect(map.get(id)).toBe(id)
    expect(map.get(next)).toBeUndefined()
  })
})
