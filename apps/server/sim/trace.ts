// The event trace of a run: each step's command, the faults that struck, and every answer the clients got (with what is
// random by nature masked: session tokens, sign-in texts, intent references, transaction signatures). Its sha256 is the
// run's fingerprint: the same seed gives the same trace, on PGlite and on PostgreSQL alike.
import { createHash } from 'node:crypto'

/** Fields whose values are random by design (the server draws them) or derived from such values. */
const RANDOM = new Set(['token', 'message', 'nonce', 'reference', 'signature', 'root', 'root_hash', 'salt', 'memo'])

function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, RANDOM.has(k) && v !== null ? '*' : masked(v)]))
  return value
}

export class Trace {
  /** Where every line also goes as it happens (--verbose). */
  static echo: ((line: string) => void) | undefined
  private readonly hash = createHash('sha256')
  private step = -1
  /** The last lines, to show around a failure. */
  readonly recent: string[] = []

  begin(step: number, line: string) {
    this.step = step
    this.line(`${step} ${line}`)
  }

  /** An event of the current step; `body` (an answer's JSON) enters the hash with its random fields masked. */
  event(line: string, body?: string) {
    this.line(`${this.step}   ${line}`)
    if (body !== undefined) this.hash.update(`${JSON.stringify(masked(JSON.parse(body)))}\n`)
  }

  private line(text: string) {
    if (Trace.echo) Trace.echo(text)
    this.hash.update(`${text}\n`)
    this.recent.push(text)
    if (this.recent.length > 40) this.recent.shift()
  }

  digest() {
    return this.hash.digest('hex')
  }
}
