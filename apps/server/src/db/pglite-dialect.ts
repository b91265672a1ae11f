import type { PGlite } from '@electric-sql/pglite'
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'

/**
 * Kysely dialect for the embedded PGlite database. PGlite is a single session, so connections are handed out one at
 * a time: a transaction owns the database until it ends, exactly as a one-connection pool would behave.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter()
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg)
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler()
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's introspector takes any database
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db)
  }
}

class PGliteDriver implements Driver {
  #queue: Promise<void> = Promise.resolve()
  #connection: PGliteConnection
  constructor(private readonly pg: PGlite) {
    this.#connection = new PGliteConnection(pg)
  }
  async init() {
    await this.pg.waitReady
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void
    const previous = this.#queue
    this.#queue = new Promise<void>((resolve) => {
      release = resolve
    })
    await previous
    this.#connection.release = release
    return this.#connection
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : ''
    await connection.executeQuery(CompiledQuery.raw(`begin${level}`))
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }
  async releaseConnection(connection: DatabaseConnection) {
    ;(connection as PGliteConnection).release()
  }
  async destroy() {
    if (!this.pg.closed) await this.pg.close()
  }
}

/**
 * int8 as a decimal string, as node-postgres returns it: ids and amounts stay exact. date as 'YYYY-MM-DD', as
 * openDatabase sets node-postgres to return it: a calendar day has no time zone to shift it.
 */
const parsers = { 20: (value: string) => value, 1082: (value: string) => value }

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => {}
  constructor(private readonly pg: PGlite) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pg.query<R>(compiled.sql, compiled.parameters as unknown[], {
      rowMode: 'object',
      parsers,
    })
    const affected = result.affectedRows
    return {
      rows: result.rows,
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(compiled.sql)
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    }
  }
  // biome-ignore lint/correctness/useYield: streaming is not supported by PGlite
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming queries')
  }
}
