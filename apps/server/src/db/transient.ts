// Database failures that pass: a lost connection (PostgreSQL restarted, a backend terminated, a proxy or failover in
// between) or a conflict (deadlock, serialization failure). Work that failed that way committed nothing and may run
// again, with one exception: a COMMIT whose answer was lost is asked after (txid_status) and a write outside a
// transaction whose answer was lost may have committed: what is not known to have rolled back is marked as an unknown
// outcome and never retried. Which work committed something is tracked per retry
// scope (AsyncLocalStorage): a scope that committed anything is not run again either.
import { AsyncLocalStorage } from 'node:async_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresDialect,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import { PgDriver, type PgDriverConfig } from './pg-driver.ts'

/** node-postgres' own errors for a connection that broke (its messages are its only mark). */
const LOST = /^(Connection terminated|Client has encountered a connection error|Client was closed)/
/** Node's socket errors on the way to the server. */
const SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'])
const UNKNOWN_OUTCOME = Symbol('commit outcome unknown')

const codeOf = (error: unknown) => String((error as { code?: unknown } | null)?.code ?? '')

/**
 * The connection broke: SQLSTATE class 08, the server shutting down or terminating the backend (57P01–57P03), a
 * socket error, or node-postgres reporting a dead client.
 */
export function isConnectionError(error: unknown): boolean {
  const code = codeOf(error)
  return (
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    SOCKET.has(code) ||
    (error instanceof Error && LOST.test(error.message))
  )
}

/** The database gave the work up without committing it: running it again is safe. */
export function isRetryable(error: unknown): boolean {
  if (error === null || typeof error !== 'object' || UNKNOWN_OUTCOME in error) return false
  const code = codeOf(error)
  return code === '40001' || code === '40P01' || isConnectionError(error)
}

interface Scope {
  committed: boolean
  parent: Scope | undefined
}
const scopes = new AsyncLocalStorage<Scope>()

/** Something was (or may have been) committed: the current retry scopes must not run again. */
export function noteCommitted() {
  for (let scope = scopes.getStore(); scope; scope = scope.parent) scope.committed = true
}

/**
 * How many tries work gets after `error`: a conflict passes at once, but after a restart or failover the server ends
 * its backends one by one, so a pool may hand out several doomed connections before it has seen them all close.
 */
export const triesAfter = (error: unknown) => (isConnectionError(error) ? 8 : 4)

/**
 * A random pause before retry number `attempt` (20–60 ms, 40–120 ms, … up to 500 ms; at most 2.4 s over 8 tries): the
 * pool meanwhile drops the connections the server ended, and instances that failed together do not retry in step.
 */
export const backoff = (attempt: number) => sleep(Math.min(500, (10 + Math.random() * 20) * 2 ** attempt))

/**
 * Runs `work`, and again (up to `triesAfter` the error, or `attempts`, times in all, after a short random pause) when it
 * failed retryably before committing anything: a request survives a database connection that broke under it.
 */
export async function retryTransient<T>(work: () => Promise<T>, attempts?: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const scope: Scope = { committed: false, parent: scopes.getStore() }
    try {
      return await scopes.run(scope, work)
    } catch (error) {
      if (attempt >= (attempts ?? triesAfter(error)) || scope.committed || !isRetryable(error)) throw error
      await backoff(attempt)
    }
  }
}

/**
 * Fault injection at the database boundary, for the simulator (apps/server/sim, docs/simulator.md): given to a tracking
 * dialect, it runs every statement and COMMIT of the work this module tracks and may fail it as the network or the
 * server would. The server never gives one: without it a statement costs one property check more.
 */
export interface DbFaultHook {
  /**
   * Runs `sql` (a statement, or 'commit') through `run`, or fails it: before it is sent (throwing without running it;
   * for a lost connection the hook first does to `connection` what the server would, rolling the transaction back) or
   * after (running it, then throwing: its answer is lost).
   */
  execute<R>(
    sql: string,
    state: { inTransaction: boolean; connection: DatabaseConnection },
    run: () => Promise<R>,
  ): Promise<R>
  /**
   * What asking the server about the transaction `xid` whose COMMIT answer was lost gives: 'committed', 'aborted', null
   * (no answer), or undefined to ask the server itself.
   */
  commitStatus(xid: string): Promise<string | null | undefined>
}

const READ = /^\s*select\b/i

/**
 * The column in which a statement may return its transaction's id (`txid_current()::text`): the tracked connection
 * keeps the first one a transaction's statements return and asks no more before COMMIT (ledger_transfer of migration
 * 0029 returns it, so a transfer in its own transaction is two round trips on PostgreSQL: the transfer with the BEGIN
 * before it (db/pg-driver.ts), then the COMMIT).
 */
export const COMMIT_XID = 'commit_xid'

/** A connection that knows whether it is in a transaction, and notes what it commits. */
class TrackedConnection implements DatabaseConnection {
  inTransaction = false
  /** Whether the transaction ran a statement: one that did not has no id, and wrote nothing. */
  ran = false
  /** The transaction's id, when a statement of it returned it (COMMIT_XID). */
  xid: string | null = null
  constructor(
    readonly inner: DatabaseConnection,
    readonly faults: DbFaultHook | undefined,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const autocommit = !this.inTransaction && !READ.test(query.sql)
    if (this.inTransaction) this.ran = true
    try {
      const result = await (this.faults
        ? this.faults.execute(query.sql, this.faultState(), () => this.inner.executeQuery<R>(query))
        : this.inner.executeQuery<R>(query))
      if (autocommit) noteCommitted()
      else if (this.xid === null && this.inTransaction) {
        const xid = (result.rows[0] as Record<string, unknown> | undefined)?.[COMMIT_XID]
        if (typeof xid === 'string') this.xid = xid
      }
      return result
    } catch (error) {
      if (autocommit) unknownOutcome(error)
      throw error
    }
  }

  faultState() {
    return { inTransaction: this.inTransaction, connection: this.inner }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize)
  }
}

/** A write whose answer was lost may have committed. */
function unknownOutcome(error: unknown) {
  if (!isConnectionError(error) || error === null || typeof error !== 'object') return
  noteCommitted()
  Object.defineProperty(error, UNKNOWN_OUTCOME, { value: true })
}

/** A Kysely driver with its connections tracked (see TrackedConnection). */
class TrackingDriver implements Driver {
  /** The tracked connection of each of the inner driver's connections (a pool's clients are reused). */
  readonly #tracked = new WeakMap<DatabaseConnection, TrackedConnection>()
  constructor(
    private readonly inner: Driver,
    private readonly faults: DbFaultHook | undefined,
  ) {}
  init() {
    return this.inner.init()
  }
  async acquireConnection() {
    const inner = await this.inner.acquireConnection()
    let connection = this.#tracked.get(inner)
    if (!connection) {
      connection = new TrackedConnection(inner, this.faults)
      this.#tracked.set(inner, connection)
    }
    connection.inTransaction = false
    connection.xid = null
    return connection
  }
  // BEGIN, COMMIT and ROLLBACK run on the inner connection, as the transaction's own statements: only COMMIT's outcome
  // can be unknown, and only COMMIT is given to the faults (a ROLLBACK is what the server does anyway when it loses the
  // connection).
  async beginTransaction(connection: TrackedConnection, settings: TransactionSettings) {
    connection.inTransaction = true
    connection.ran = false
    connection.xid = null
    try {
      await this.inner.beginTransaction(connection.inner, settings)
    } catch (error) {
      connection.inTransaction = false
      throw error
    }
  }
  async commitTransaction(connection: TrackedConnection) {
    // The transaction's id, if it wrote anything (null: it did not), asked before the COMMIT unless a statement of the
    // transaction returned it (COMMIT_XID) or none ran: a connection that breaks here breaks before the COMMIT was
    // sent, and the transaction is rolled back.
    const xid = connection.xid ?? (connection.ran ? await this.currentXid(connection) : null)
    connection.xid = null
    try {
      await (this.faults
        ? this.faults.execute('commit', connection.faultState(), () => this.inner.commitTransaction(connection.inner))
        : this.inner.commitTransaction(connection.inner))
      noteCommitted()
    } catch (error) {
      // The connection broke around the COMMIT: ask the server, on another connection, what became of the transaction
      // (txid_status, made for this). Committed: the work is done. Rolled back: it may run again. No answer: unknown.
      const status = isConnectionError(error) ? (xid === null ? 'aborted' : await this.statusOf(xid)) : null
      if (status === 'committed') return noteCommitted()
      if (status !== 'aborted') unknownOutcome(error)
      throw error
    } finally {
      connection.inTransaction = false
    }
  }
  private async currentXid(connection: TrackedConnection): Promise<string | null> {
    const { rows } = await connection.inner.executeQuery<{ xid: string | null }>(
      CompiledQuery.raw('select txid_current_if_assigned()::text as xid'),
    )
    return rows[0]?.xid ?? null
  }
  /** 'committed', 'aborted' or null (unknown: the server cannot be asked, or still ends the transaction after ~2 s). */
  private async statusOf(xid: string): Promise<string | null> {
    const injected = this.faults && (await this.faults.commitStatus(xid))
    if (injected !== undefined) return injected
    for (let attempt = 1; attempt <= 8; attempt++) {
      try {
        const connection = await this.inner.acquireConnection()
        try {
          const { rows } = await connection.executeQuery<{ status: string | null }>(
            CompiledQuery.raw('select txid_status($1::bigint) as status', [xid]),
          )
          const status = rows[0]?.status ?? null
          if (status === 'committed' || status === 'aborted') return status
        } finally {
          await this.inner.releaseConnection(connection)
        }
      } catch {
        // the next try, on another connection
      }
      await backoff(attempt)
    }
    return null
  }
  async rollbackTransaction(connection: TrackedConnection) {
    connection.xid = null
    // Also after a failed COMMIT (which ended the transaction for this tracker): a ROLLBACK commits nothing, and its
    // failure must not count as a write of unknown outcome.
    connection.inTransaction = true
    try {
      await this.inner.rollbackTransaction(connection.inner)
    } finally {
      connection.inTransaction = false
    }
  }
  releaseConnection(connection: TrackedConnection) {
    return this.inner.releaseConnection(connection.inner)
  }
  destroy() {
    return this.inner.destroy()
  }
}

/**
 * PostgresDialect whose driver tracks commits for retryTransient (and takes the simulator's faults), over db/pg-driver.ts
 * (Kysely's PostgresDriver with each transaction's BEGIN sent with its first statement).
 */
export class TrackingPostgresDialect extends PostgresDialect {
  constructor(private readonly config: PgDriverConfig & { faults?: DbFaultHook | undefined }) {
    super(config)
  }
  override createDriver(): Driver {
    return new TrackingDriver(new PgDriver(this.config), this.config.faults)
  }
}

/**
 * Any dialect with its commits tracked and `faults` injected: the simulator runs the embedded database so, to fail it
 * as PostgreSQL fails (PGlite itself has no connection to lose, so the server does not track it).
 */
export function trackingDialect(dialect: Dialect, faults: DbFaultHook): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new TrackingDriver(dialect.createDriver(), faults),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  }
}
