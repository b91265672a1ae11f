// A map from bigint keys (order ids, prices) to values, for the matching engine's hot path (engine.ts). A key whose
// value is a safe integer — every database id and price in practice — lives in an open-addressing table of numbers
// (linear probing, Fibonacci hashing, deletion by backward shift so no tombstones accumulate); any other key lives in a
// plain Map by its decimal text. On the engine's pattern (a new id set for every resting order, another deleted for
// every fill or cancel, about 20,000 live) a `Map` keyed by number spent about 100 ns more per set, get and delete
// than this table (docs/benchmarks.md, bench/trade).

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const TWO_32 = 4294967296

export class IdMap<V> {
  private keys = new Float64Array(16)
  /** undefined marks an empty slot. */
  private values: (V | undefined)[] = new Array(16).fill(undefined)
  private shift = 28 // 32 − log2(capacity)
  private mask = 15
  private count = 0
  private readonly large = new Map<string, V>()

  get size(): number {
    return this.count + this.large.size
  }

  get(id: bigint): V | undefined {
    const key = Number(id)
    if (key > MAX_SAFE || key < -MAX_SAFE) return this.large.get(id.toString())
    const { keys, values, mask } = this
    for (let i = this.slot(key); ; i = (i + 1) & mask) {
      const value = values[i]
      if (value === undefined || keys[i] === key) return value
    }
  }

  has(id: bigint): boolean {
    return this.get(id) !== undefined
  }

  /** Sets a value (never undefined). */
  set(id: bigint, value: V): void {
    const key = Number(id)
    if (key > MAX_SAFE || key < -MAX_SAFE) {
      this.large.set(id.toString(), value)
      return
    }
    if ((this.count + 1) * 2 > this.values.length) this.grow()
    this.insert(key, value)
  }

  private insert(key: number, value: V) {
    const { keys, values, mask } = this
    for (let i = this.slot(key); ; i = (i + 1) & mask) {
      if (values[i] === undefined) {
        keys[i] = key
        values[i] = value
        this.count += 1
        return
      }
      if (keys[i] === key) {
        values[i] = value
        return
      }
    }
  }

  /** Removes the key; returns the value it had, or undefined. */
  take(id: bigint): V | undefined {
    const key = Number(id)
    if (key > MAX_SAFE || key < -MAX_SAFE) {
      const text = id.toString()
      const value = this.large.get(text)
      this.large.delete(text)
      return value
    }
    const { keys, values, mask } = this
    let i = this.slot(key)
    for (; ; i = (i + 1) & mask) {
      const value = values[i]
      if (value === undefined) return undefined
      if (keys[i] === key) break
    }
    const taken = values[i]
    // Backward shift: move later entries of the probe run into the hole when their home slot is not after it.
    for (let j = (i + 1) & mask; values[j] !== undefined; j = (j + 1) & mask) {
      const home = this.slot(keys[j] as number)
      if (j > i ? home <= i || home > j : home <= i && home > j) {
        keys[i] = keys[j] as number
        values[i] = values[j]
        i = j
      }
    }
    values[i] = undefined
    this.count -= 1
    return taken
  }

  delete(id: bigint): boolean {
    return this.take(id) !== undefined
  }

  private slot(key: number): number {
    const low = key >>> 0
    const high = (key / TWO_32) | 0
    return Math.imul(low ^ Math.imul(high, 0x27d4eb2f), 0x9e3779b1) >>> this.shift
  }

  private grow() {
    const { keys, values } = this
    const capacity = values.length * 2
    this.keys = new Float64Array(capacity)
    this.values = new Array(capacity).fill(undefined)
    this.mask = capacity - 1
    this.shift -= 1
    this.count = 0
    for (let i = 0; i < values.length; i++) {
      const value = values[i]
      if (value !== undefined) this.insert(keys[i] as number, value)
    }
  }
}
