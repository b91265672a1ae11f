// The faults a step may carry, drawn by the seed with the step (so they shrink with it), and where they strike: the
// database hook of db/transient.ts and the RPC transport of chain/rpc.ts, both given to the server's own code, and a
// process crash (everything in memory dropped) at a statement, an RPC call or a named critical point.
import { SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, SolanaError } from '@solana/kit'
import fc from 'fast-check'
import { CompiledQuery, type DatabaseConnection } from 'kysely'
import type { DbFaultHook } from '../src/db/transient.ts'

/** Which faults a run injects: `--faults <profile>` names a set of these. */
export type FaultClass = 'db' | 'rpc' | 'crash' | 'answer'

/**
 * The profiles. `answer` is the window after a money call's transaction (its effects and its answer, docs/money.md)
 * committed and before the answer reaches the client: a crash there, any fault after it in the same request. `standard`
 * (what CI runs) and `all` are every class.
 */
export const PROFILES: Record<string, FaultClass[]> = {
  none: [],
  standard: ['db', 'rpc', 'crash', 'answer'],
  all: ['db', 'rpc', 'crash', 'answer'],
  db: ['db'],
  rpc: ['rpc'],
  crash: ['crash'],
}

/** A database failure at this step's statement (or COMMIT) number `at`. */
export type DbFault =
  /** A serialization failure or deadlock before the statement: the transaction is given up. */
  | { kind: 'conflict'; at: number; code: '40001' | '40P01' }
  /** The connection breaks before the statement is sent: its transaction rolls back. */
  | { kind: 'reset'; at: number }
  /** The statement runs, then the connection breaks: its answer is lost (in a transaction: rolled back). */
  | { kind: 'lost'; at: number }
  /** The connection breaks before COMMIT number `at` is sent: rolled back. */
  | { kind: 'commitReset'; at: number }
  /** COMMIT number `at` succeeds but its answer is lost; asking the server (txid_status) says committed. */
  | { kind: 'commitLost'; at: number }
  /** COMMIT number `at` succeeds, its answer is lost, and the server cannot be asked: the outcome is unknown. */
  | { kind: 'commitUnknown'; at: number }

/**
 * An RPC failure at this step's call number `at`; `late` and `blockhash`, which only a sent transaction can meet, at
 * the step's `sendTransaction` number `at` (a payout sent by the withdrawal sender, a payment sent by a client), so that
 * they reach the sends they are about instead of whichever call has that number.
 */
export interface RpcFault {
  kind:
    | 'drop' // never reaches the node (network error)
    | 'lost' // served, the answer lost (network error)
    | 'dup' // delivered twice
    | 'slow' // served after the chain moved on `slots`
    | 'stale' // served, the answer arrives after the chain moved on `slots`
    | 'blockhash' // sendTransaction answered "Blockhash not found" without being served
    | 'http503' // the node answers HTTP 503
    | 'late' // sendTransaction accepted, but it lands only `slots` later (if still valid)
  at: number
  slots: number
}

/** A process crash: all in-memory state is gone, the jobs restart from the database. */
export type CrashFault =
  /** Before (or right after) this step's statement number `at`. */
  | { kind: 'statement'; at: number; after: boolean }
  /** Before (or right after) this step's RPC call number `at`. */
  | { kind: 'rpc'; at: number; after: boolean }
  /** After a withdrawal's payout is signed, before it is recorded. */
  | { kind: 'payoutSigned' }
  /** After a payout is recorded, before it is sent. */
  | { kind: 'payoutStored' }
  /** After a money call's transaction (its effects and its answer) commits, before the answer is sent (`answer`). */
  | { kind: 'answer' }

export interface StepFaults {
  db?: DbFault[] | undefined
  rpc?: RpcFault[] | undefined
  crash?: CrashFault | undefined
}

const at = fc.integer({ min: 0, max: 10 })

const dbFault: fc.Arbitrary<DbFault> = fc.oneof(
  fc.record({ kind: fc.constant('conflict' as const), at, code: fc.constantFrom('40001' as const, '40P01' as const) }),
  fc.record({ kind: fc.constant('reset' as const), at }),
  fc.record({ kind: fc.constant('lost' as const), at }),
  fc.record({ kind: fc.constant('commitReset' as const), at: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('commitLost' as const), at: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('commitUnknown' as const), at: fc.integer({ min: 0, max: 2 }) }),
)

const SEND_FAULTS = new Set<RpcFault['kind']>(['late', 'blockhash'])

const slots = fc.integer({ min: 1, max: 200 })
const sendFault = fc.record({ kind: fc.constantFrom('blockhash' as const, 'late' as const), at: fc.nat(1), slots })
const rpcFault: fc.Arbitrary<RpcFault> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('drop', 'lost', 'dup', 'slow', 'stale', 'http503'),
    at: fc.integer({ min: 0, max: 6 }),
    slots,
  }),
  sendFault,
)

const crashFault: fc.Arbitrary<CrashFault> = fc.oneof(
  fc.record({ kind: fc.constant('statement' as const), at, after: fc.boolean() }),
  fc.record({ kind: fc.constant('rpc' as const), at: fc.integer({ min: 0, max: 6 }), after: fc.boolean() }),
  fc.constant({ kind: 'payoutSigned' as const }),
  fc.constant({ kind: 'payoutStored' as const }),
  fc.constant({ kind: 'answer' as const }),
)

/**
 * A step carries up to three database faults and two RPC faults, and a crash one time in ten; each strikes only if the
 * step reaches its statement, call or point.
 */
const stepFaultsWith = (rpc: fc.Arbitrary<RpcFault[]>): fc.Arbitrary<StepFaults> =>
  fc.record({
    db: fc.array(dbFault, { maxLength: 3 }),
    rpc,
    crash: fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, { arbitrary: crashFault, weight: 1 }),
  })
export const stepFaults = stepFaultsWith(fc.array(rpcFault, { maxLength: 2 }))

/**
 * A withdrawal sender's pass: as a step, and one time in two its payout send is held by the node (`late`) or refused
 * ("Blockhash not found"). A payout is paid twice only when one of its transactions lands late, after the sender's next
 * pass saw it nowhere: drawn as rarely as any other fault, that almost never met a pass with a payout to send.
 */
export const senderStepFaults = stepFaultsWith(
  fc.oneof(
    fc.array(rpcFault, { maxLength: 2 }),
    sendFault.map((fault) => [fault]),
  ),
)

/** What the simulated process dying looks like to the code that was running in it. */
export class SimCrash extends Error {
  constructor() {
    super('the simulated process crashed')
  }
}

/** A PostgreSQL error as node-postgres throws it. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code })
const connectionLost = () => pgError('08006', 'connection to the database lost (simulated)')

/** An incarnation of the server process: once dead, nothing it runs reaches the database or the chain. */
export interface Process {
  dead: boolean
}

/** Where a step's calls come from: a client's request, a job pass, or the simulator itself (never faulted). */
export type Context = 'request' | 'job' | 'none'

const READ = /^\s*select\b/i
/** The idempotency claim (an insert before the handler runs) and the storing of an answer (or of a refusal, after it). */
const CLAIM = /^insert into "idempotency_keys"/
const FINISH = /^update "idempotency_keys" set "state"/
/** The sender storing a signed payout (a first one, or a replacement). */
const STORE_PAYOUT = /^update "withdrawals" set ("status" = \$1, )?"signature"/

/** A transaction the server would roll back when its connection drops. */
const rollBack = (connection: DatabaseConnection) => connection.executeQuery(CompiledQuery.raw('rollback'))

export interface ChainSide {
  /** Serves a JSON-RPC request body as the node would. */
  serve(payload: unknown): Promise<unknown>
  /** Lets the chain produce `slots` slots. */
  tick(slots: number): Promise<void>
  /** Keeps a wire transaction to land it `slots` later. */
  hold(payload: unknown, slots: number): string | undefined
}

/**
 * The faults of the current step and the counters they aim at. One per run; the world sets the plan and the context
 * before each step and reads `fired` after it.
 */
export class FaultInjector {
  plan: StepFaults = {}
  context: Context = 'none'
  /** Statements, COMMITs, RPC calls and sendTransaction calls seen in this step. */
  private statements = 0
  private commits = 0
  private calls = 0
  private sends = 0
  /** A request of this step committed what it did: from here until its answer is sent is the `answer` window. */
  private effects = false
  /** What txid_status answers about the COMMIT whose answer the last fault lost (undefined: ask the database). */
  private status: string | null | undefined
  fired: string[] = []
  /** Where every statement, COMMIT and RPC call goes with its number as it runs (--sql), for reading a failure. */
  static echo: ((line: string) => void) | undefined

  constructor(
    private readonly classes: ReadonlySet<FaultClass>,
    private readonly askStatus: (xid: string) => Promise<string | null | undefined>,
  ) {}

  begin(plan: StepFaults, context: Context) {
    this.plan = plan
    this.context = context
    this.statements = 0
    this.commits = 0
    this.calls = 0
    this.sends = 0
    this.effects = false
    this.fired = []
  }

  /** Whether a fault of `cls` may strike now: in a request after its commit, only with the `answer` class. */
  private allowed(cls: FaultClass) {
    if (!this.classes.has(cls) || this.context === 'none') return false
    return !(this.context === 'request' && this.effects && !this.classes.has('answer'))
  }

  private crash(process: Process, what: string): never {
    process.dead = true
    this.fired.push(`crash ${what}`)
    throw new SimCrash()
  }

  /** The database hook of one incarnation (db/transient.ts). */
  dbHook(process: Process): DbFaultHook {
    return {
      execute: async (sql, state, run) => {
        if (process.dead) throw new SimCrash()
        const commit = sql === 'commit'
        const n = commit ? this.commits++ : this.statements++
        FaultInjector.echo?.(`${commit ? 'commit' : 'statement'} ${n}: ${sql.slice(0, 140)}`)
        const crash = this.plan.crash
        if (crash && this.allowed('crash')) {
          if (crash.kind === 'statement' && !crash.after && !commit && crash.at === n)
            this.crash(process, `before statement ${n}`)
          if (crash.kind === 'payoutSigned' && STORE_PAYOUT.test(sql)) this.crash(process, 'after a payout was signed')
        }
        const fault = this.plan.db?.find((f) => f.at === n && commit === f.kind.startsWith('commit'))
        const strikes =
          fault !== undefined &&
          this.allowed('db') &&
          // A lost answer of a write outside a transaction (other than the claim) leaves its outcome unknown: the
          // call answers 500 and the retry runs it again, like an unknown COMMIT.
          ((fault.kind !== 'commitUnknown' && !(fault.kind === 'lost' && !state.inTransaction && !READ.test(sql))) ||
            CLAIM.test(sql) ||
            this.context !== 'request' ||
            this.classes.has('answer')) &&
          (!FINISH.test(sql) || this.classes.has('answer'))
        if (strikes) {
          this.fired.push(`db ${fault.kind} at ${commit ? 'commit' : 'statement'} ${n}`)
          switch (fault.kind) {
            case 'conflict':
              throw pgError(fault.code, 'could not serialize access (simulated)')
            case 'reset':
            case 'commitReset':
              if (state.inTransaction) await rollBack(state.connection)
              throw connectionLost()
            case 'lost':
              await run()
              if (state.inTransaction) await rollBack(state.connection)
              this.noteEffects(sql, state.inTransaction)
              throw connectionLost()
            case 'commitLost':
            case 'commitUnknown':
              await run()
              this.effects = true
              this.status = fault.kind === 'commitLost' ? undefined : null
              throw connectionLost()
          }
        }
        const result = await run()
        this.noteEffects(sql, state.inTransaction)
        if (crash?.kind === 'statement' && crash.after && !commit && crash.at === n && this.allowed('crash'))
          this.crash(process, `after statement ${n}`)
        return result
      },
      commitStatus: async (xid) => {
        const status = this.status
        this.status = undefined
        return status === null ? null : this.askStatus(xid)
      },
    }
  }

  /**
   * A money call's transaction — its effects and its answer — committed, and the answer is not sent yet: the point
   * lib/idempotency.ts offers (`faults.afterCommit`), where an `answer` crash strikes.
   */
  afterCommit(process: Process, call: { key: string | undefined }) {
    if (process.dead) throw new SimCrash()
    this.effects = true
    if (call.key !== undefined && this.plan.crash?.kind === 'answer' && this.allowed('crash') && this.allowed('answer'))
      this.crash(process, 'after a money call committed, before its answer was sent')
  }

  private noteEffects(sql: string, inTransaction: boolean) {
    if (sql === 'commit' || (!inTransaction && !READ.test(sql) && !CLAIM.test(sql))) this.effects = true
  }

  /** The RPC transport of one incarnation's endpoint (chain/rpc.ts). */
  transport(process: Process, chain: ChainSide) {
    return async <T>(config: { payload: unknown; signal?: AbortSignal }): Promise<T> => {
      if (process.dead) throw new SimCrash()
      const n = this.calls++
      const method = (config.payload as { method?: string }).method
      const send = method === 'sendTransaction' ? this.sends++ : undefined
      FaultInjector.echo?.(`RPC call ${n}: ${method}`)
      const crash = this.plan.crash
      if (crash && this.allowed('crash')) {
        if (crash.kind === 'rpc' && !crash.after && crash.at === n) this.crash(process, `before RPC call ${n}`)
        if (crash.kind === 'payoutStored' && method === 'sendTransaction' && this.context === 'job')
          this.crash(process, 'after a payout was stored, before it was sent')
      }
      const fault = this.plan.rpc?.find((f) => (SEND_FAULTS.has(f.kind) ? f.at === send : f.at === n))
      let answer: unknown
      if (fault && this.allowed('rpc')) {
        this.fired.push(`rpc ${fault.kind} at call ${n} (${method})`)
        switch (fault.kind) {
          case 'drop':
            throw new TypeError('fetch failed (simulated)')
          case 'lost':
            await chain.serve(config.payload)
            throw new TypeError('fetch failed (simulated)')
          case 'dup':
            answer = await chain.serve(config.payload)
            await chain.serve(config.payload)
            break
          case 'slow':
            await chain.tick(fault.slots)
            answer = await chain.serve(config.payload)
            break
          case 'stale':
            answer = await chain.serve(config.payload)
            await chain.tick(fault.slots)
            break
          case 'http503':
            throw new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, {
              headers: new Headers(),
              message: 'Service Unavailable',
              statusCode: 503,
            })
          case 'blockhash':
            answer = blockhashNotFound(config.payload)
            break
          case 'late': {
            const signature = chain.hold(config.payload, fault.slots)
            answer = signature
              ? { jsonrpc: '2.0', result: signature, id: (config.payload as { id: unknown }).id }
              : await chain.serve(config.payload)
            break
          }
        }
      } else answer = await chain.serve(config.payload)
      if (crash?.kind === 'rpc' && crash.after && crash.at === n && this.allowed('crash'))
        this.crash(process, `after RPC call ${n}`)
      return answer as T
    }
  }
}

/** The node's preflight refusal of a transaction whose blockhash it does not know (as packages/localnet answers). */
function blockhashNotFound(payload: unknown) {
  return {
    jsonrpc: '2.0',
    id: (payload as { id: unknown }).id,
    error: {
      code: -32002,
      message: 'Transaction simulation failed: Blockhash not found',
      data: {
        accounts: null,
        err: 'BlockhashNotFound',
        innerInstructions: null,
        loadedAccountsDataSize: 0,
        logs: [],
        replacementBlockhash: null,
        returnData: null,
        unitsConsumed: 0,
      },
    },
  }
}
