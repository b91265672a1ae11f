// The worker threads that hash the subtrees of a proof-of-liabilities tree (./sha256x4.ts, ./tree.ts): the leaves of a
// chunk of users and the levels above them up to the chunk's root depend on no other chunk, so each chunk is hashed
// by one worker while the next ones go to the others. The workers are started at the first tree, one per core (at
// most 4), and kept; they do not keep the process alive while idle.
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { type SubtreeLayout, subtreeModule, type WasmModule, wasm } from './sha256x4.ts'

/** A chunk of users to hash: `count` users (address ‖ salt, 64 bytes each) and their leaves' amounts (node-sized). */
export interface SubtreeJob {
  count: number
  /** Set for the tree's first chunk: it stops at a level of one node (the root of a tree of one chunk). */
  first: boolean
  users: Uint8Array
  leaves: Uint8Array
}

export interface SubtreeResult {
  count: number
  /** The users as sent (their salts are kept with the leaves) and the hashed leaves (hash ‖ amounts). */
  users: Uint8Array
  leaves: Uint8Array
  /** The levels above the leaves, concatenated, and the number of nodes of each, level 1 first. */
  levels: Uint8Array
  counts: number[]
  overflow: boolean
}

// The worker's whole code: plain JavaScript (it is evaluated, not imported, so it runs the same under tsx, vitest and
// the compiled server). It instantiates each module it is sent once and keeps it.
const WORKER = `
const { parentPort } = require('node:worker_threads')
const instances = new Map()
parentPort.on('message', (job) => {
  let hasher = instances.get(job.key)
  if (!hasher) {
    hasher = new WebAssembly.Instance(job.module).exports
    instances.set(job.key, hasher)
  }
  const { node, users, nodes } = job.layout
  const memory = new Uint8Array(hasher.memory.buffer)
  memory.set(job.users.subarray(0, 64 * job.count), users)
  memory.set(job.leaves.subarray(0, node * job.count), nodes)
  const result = hasher.subtree(job.count, job.first ? 1 : 0, job.layout.levels)
  job.leaves.set(memory.subarray(nodes, nodes + node * job.count))
  const counts = []
  const starts = []
  for (let level = 0, size = job.count, at = nodes; level < (result & 0xffff); level++) {
    at += (size + 1) * node
    size = (size + 1) >> 1
    starts.push(at)
    counts.push(size)
  }
  const levels = new Uint8Array(node * counts.reduce((a, b) => a + b, 0))
  for (let level = 0, out = 0; level < counts.length; level++) {
    levels.set(memory.subarray(starts[level], starts[level] + node * counts[level]), out)
    out += node * counts[level]
  }
  const reply = { count: job.count, users: job.users, leaves: job.leaves, levels, counts, overflow: result >>> 16 !== 0 }
  parentPort.postMessage(reply, [job.users.buffer, job.leaves.buffer, levels.buffer])
})
`

interface Waiting {
  resolve: (result: SubtreeResult) => void
  reject: (error: Error) => void
}

class HashWorker {
  readonly worker = new Worker(WORKER, { eval: true })
  readonly queue: Waiting[] = []
  readonly modules = new Set<string>()
  failed = false

  constructor() {
    this.worker.unref()
    this.worker.on('message', (result: SubtreeResult) => {
      this.queue.shift()?.resolve(result)
      if (this.queue.length === 0) this.worker.unref()
    })
    const fail = (error: Error) => {
      this.failed = true
      for (const waiting of this.queue.splice(0)) waiting.reject(error)
    }
    this.worker.on('error', fail)
    this.worker.on('exit', (code) => fail(new Error(`pol: a hashing worker exited (${code})`)))
  }

  run(key: string, module: WasmModule, layout: SubtreeLayout, job: SubtreeJob): Promise<SubtreeResult> {
    return new Promise((resolve, reject) => {
      if (this.queue.length === 0) this.worker.ref()
      this.queue.push({ resolve, reject })
      const known = this.modules.has(key)
      this.modules.add(key)
      this.worker.postMessage({ ...job, key, module: known ? null : module, layout }, [
        job.users.buffer as ArrayBuffer,
        job.leaves.buffer as ArrayBuffer,
      ])
    })
  }
}

const WORKERS = Math.max(1, Math.min(4, availableParallelism()))
let workers: HashWorker[] = []
const modules = new Map<string, { module: WasmModule; layout: SubtreeLayout }>()
let turn = 0

/** The hasher of subtrees of `levels` levels of a tree of `assets` assets: a function from a job to its result. */
export function subtreeHasher(assets: number, levels: number) {
  const key = `${assets}:${levels}`
  let compiled = modules.get(key)
  if (!compiled) {
    const { bytes, layout } = subtreeModule(assets, levels)
    compiled = { module: new wasm.Module(bytes), layout }
    modules.set(key, compiled)
  }
  const { module, layout } = compiled
  return {
    layout,
    hash(job: SubtreeJob): Promise<SubtreeResult> {
      workers = workers.filter((worker) => !worker.failed)
      while (workers.length < WORKERS) workers.push(new HashWorker())
      const worker = workers[turn++ % workers.length] as HashWorker
      return worker.run(key, module, layout, job)
    },
  }
}
