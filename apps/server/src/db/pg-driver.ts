// The PostgreSQL driver under the server's tracking dialect (db/transient.ts): Kysely's own PostgresDriver, with one
// round trip fewer per transaction. A transaction's BEGIN is not sent on its own: it goes out with the transaction's
// first statement, in the same write and under one Sync (or in one Query message): if the BEGIN failed, the server
// would skip the statement rather than run it outside the transaction. A transaction that runs no
// statement sends nothing at all. And the few hot statements the server names (`prepared`, below: a ledger transfer's
// call) are parsed once per connection and then only bound and executed. Everything else is node-postgres as Kysely
// uses it: the pool's clients, their type parsers, unnamed statements, the same results and errors.
// docs/benchmarks.md "Node's share of a transfer" and "bench/ledger" measure it.
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type PostgresPool,
  type PostgresPoolClient,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import pg from 'pg'

/** The statements sent as named prepared statements: their names, by text (`prepared`). */
const PREPARED = new Map<string, string>()

/**
 * Declares the statement `text` a prepared statement named `name` and returns the text: where the driver prepares
 * (PgDriverConfig.preparedStatements, on by default), a connection parses and plans it once, at its first run, and
 * from then on only binds and executes it (about 20–50 µs of PostgreSQL's time less per call, docs/benchmarks.md
 * "bench/ledger"). For statements run often with one text and only their parameters changing. The statement keeps
 * its result's columns for the connection's life: a migration that changes them (e.g. a function's result columns)
 * needs the instances restarted, as it needs their code changed.
 */
export function prepared(name: string, text: string): string {
  const known = [...PREPARED].find(([other, given]) => given === name && other !== text)
  if (known) throw new Error(`prepared statement ${name} is already declared for another text`)
  PREPARED.set(text, name)
  return text
}

export interface PgDriverConfig extends PostgresDialectConfig {
  /**
   * Whether the statements declared with `prepared` go out as named statements (default true). False behind a
   * transaction-mode pooler that does not keep prepared statements (PgBouncer before 1.21, or its
   * `max_prepared_statements` 0): it would send a statement's next run to a server connection that never parsed it
   * (docs/scaling.md).
   */
  preparedStatements?: boolean
}

/** What node-postgres answers a query with (its Result). */
interface PgResult {
  command: string
  rowCount: number | null
  rows: unknown[]
}

/**
 * node-postgres' query, preceded by `begin` (BEGIN or START TRANSACTION …) in the same message batch. With parameters
 * (the extended protocol): Parse, Bind and Execute of the BEGIN, then the statement's Parse, Bind, Describe, Execute and
 * the one Sync, written at once. Without (node-postgres sends those in the simple protocol): one Query message, the
 * BEGIN before the text (`begin;` + the text, as a text of several statements was sent before). Its result is the
 * statement's (the BEGIN's CommandComplete is passed over). It relies on pg.Query's `submit`, `prepare` and
 * `handleCommandComplete`, which every query of node-postgres goes through; pg-driver.pg.test.ts checks the wire and
 * the outcomes.
 */
class QueryAfterBegin extends (pg.Query as unknown as new (config: {
  text: string
  values: readonly unknown[]
  name: string | undefined
}) => {
  text: string
  callback: ((error: Error | null, result: PgResult) => void) | undefined
  requiresPreparation(): boolean
  submit(connection: PgWire): Error | null
  prepare(connection: PgWire): void
  handleCommandComplete(message: unknown, connection: PgWire): void
}) {
  #begun = false
  constructor(
    private readonly begin: string,
    text: string,
    values: readonly unknown[],
    name: string | undefined,
  ) {
    super({ text, values, name })
  }
  override submit(connection: PgWire) {
    if (!this.requiresPreparation()) this.text = `${this.begin};\n${this.text}`
    return super.submit(connection)
  }
  override prepare(connection: PgWire) {
    connection.parse({ text: this.begin })
    connection.bind({})
    connection.execute({})
    super.prepare(connection)
  }
  override handleCommandComplete(message: unknown, connection: PgWire) {
    if (this.#begun) super.handleCommandComplete(message, connection)
    else this.#begun = true
  }
}

/** The part of node-postgres' Connection that QueryAfterBegin writes with. */
interface PgWire {
  parse(query: { text: string }): void
  bind(config: object): void
  execute(config: object): void
}

const beginSql = ({ isolationLevel, accessMode }: TransactionSettings) =>
  isolationLevel || accessMode
    ? `start transaction${isolationLevel ? ` isolation level ${isolationLevel}` : ''}${accessMode ? ` ${accessMode}` : ''}`
    : 'begin'

/** A pool client as a Kysely connection, holding back its transaction's BEGIN until the first statement. */
export class PgConnection implements DatabaseConnection {
  /** The BEGIN of the transaction begun and not sent yet; null outside a transaction or once sent. */
  pendingBegin: string | null = null
  constructor(
    readonly client: PostgresPoolClient,
    private readonly cursor: PostgresDialectConfig['cursor'] | null,
    /** Whether the statements declared with `prepared` go out named. */
    private readonly prepare: boolean,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const begin = this.pendingBegin
    const name = this.prepare ? PREPARED.get(query.sql) : undefined
    try {
      let result: PgResult
      if (begin === null)
        result =
          name === undefined
            ? await this.client.query(query.sql, query.parameters as unknown[])
            : await (this.client as unknown as pg.PoolClient).query({
                name,
                text: query.sql,
                values: query.parameters as unknown[],
              })
      else {
        // Sent from here on, whatever the outcome: after a failure the transaction may be open, and is rolled back.
        this.pendingBegin = null
        result = await new Promise<PgResult>((resolve, reject) => {
          const submittable = new QueryAfterBegin(begin, query.sql, query.parameters, name)
          submittable.callback = (error, answer) => (error ? reject(error) : resolve(answer))
          ;(this.client as unknown as pg.PoolClient).query(submittable as unknown as pg.Submittable)
        })
      }
      const { command, rowCount, rows } = result
      return {
        numAffectedRows:
          command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
            ? BigInt(rowCount ?? 0)
            : undefined,
        rows: (rows ?? []) as R[],
      }
    } catch (error) {
      // As Kysely's driver does: the caller's stack after node-postgres' own.
      if (error instanceof Error) error.stack += `\n${new Error().stack?.split('\n').slice(1).join('\n') ?? ''}`
      throw error
    }
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (!this.cursor)
      throw new Error(
        "'cursor' is not present in your postgres dialect config. It's required to make streaming work in postgres.",
      )
    if (!Number.isInteger(chunkSize) || (chunkSize as number) <= 0)
      throw new Error('chunkSize must be a positive integer')
    // A cursor keeps its portal across round trips: its transaction's BEGIN goes first, on its own.
    if (this.pendingBegin !== null) await this.executeQuery(CompiledQuery.raw(this.pendingBegin))
    const cursor = this.client.query(new this.cursor(query.sql, query.parameters.slice()))
    try {
      for (;;) {
        const rows = await cursor.read(chunkSize as number)
        if (rows.length === 0) break
        yield { rows: rows as R[] }
      }
    } finally {
      await cursor.close()
    }
  }
}

const COMMIT = CompiledQuery.raw('commit')
const ROLLBACK = CompiledQuery.raw('rollback')

/** Kysely's PostgresDriver, with the transaction's BEGIN sent with its first statement (see PgConnection). */
export class PgDriver implements Driver {
  #pool: PostgresPool | undefined
  readonly #connections = new WeakMap<PostgresPoolClient, PgConnection>()
  constructor(private readonly config: PgDriverConfig) {}

  async init() {
    this.#pool = typeof this.config.pool === 'function' ? await this.config.pool() : this.config.pool
  }

  async acquireConnection(): Promise<PgConnection> {
    const pool = this.#pool
    if (!pool) throw new Error('driver has already been destroyed')
    const client = await pool.connect()
    // `destroy` was called while the connection was being acquired.
    if (!this.#pool) {
      client.release()
      throw new Error('driver has already been destroyed')
    }
    let connection = this.#connections.get(client)
    if (!connection) {
      connection = new PgConnection(client, this.config.cursor ?? null, this.config.preparedStatements ?? true)
      this.#connections.set(client, connection)
      await this.config.onCreateConnection?.(connection)
    }
    connection.pendingBegin = null
    await this.config.onReserveConnection?.(connection)
    return connection
  }

  async beginTransaction(connection: PgConnection, settings: TransactionSettings) {
    connection.pendingBegin = beginSql(settings)
  }

  async commitTransaction(connection: PgConnection) {
    // No statement ran: the transaction was never opened on the server, and there is nothing to commit.
    if (connection.pendingBegin !== null) connection.pendingBegin = null
    else await connection.executeQuery(COMMIT)
  }

  async rollbackTransaction(connection: PgConnection) {
    if (connection.pendingBegin !== null) connection.pendingBegin = null
    else await connection.executeQuery(ROLLBACK)
  }

  async releaseConnection(connection: PgConnection) {
    connection.client.release()
  }

  async destroy() {
    const pool = this.#pool
    if (!pool) return
    this.#pool = undefined
    await pool.end()
  }
}
