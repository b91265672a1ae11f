import fs from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, type Migration, Migrator } from 'kysely'
import pg from 'pg'
import { type OutageLog, Reachability } from '../lib/reachability.ts'
import * as init from './migrations/0001-init.ts'
import * as ledger from './migrations/0002-ledger.ts'
import * as paymentIntents from './migrations/0003-payment-intents.ts'
import * as withdrawals from './migrations/0004-withdrawals.ts'
import * as configVersions from './migrations/0005-config-versions.ts'
import * as nodes from './migrations/0006-nodes.ts'
import * as positions from './migrations/0007-positions.ts'
import * as notices from './migrations/0008-notices.ts'
import * as team from './migrations/0009-team.ts'
import * as teamWrites from './migrations/0010-team-writes.ts'
import * as newPowerCounters from './migrations/0011-new-power-counters.ts'
import * as trade from './migrations/0012-trade.ts'
import * as admin from './migrations/0013-admin.ts'
import * as settlementPerf from './migrations/0014-settlement-perf.ts'
import * as idempotency from './migrations/0015-idempotency.ts'
import * as fourEyes from './migrations/0016-four-eyes.ts'
import * as fixedSettings from './migrations/0018-fixed-settings.ts'
import * as liabilities from './migrations/0019-liabilities.ts'
import * as economics from './migrations/0020-economics.ts'
import * as rateLimits from './migrations/0021-rate-limits.ts'
import * as sessionIdle from './migrations/0023-session-idle.ts'
import * as live from './migrations/0024-live.ts'
import * as campaigns from './migrations/0025-campaigns.ts'
import * as cleanRichText from './migrations/0026-clean-rich-text.ts'
import * as priceDays from './migrations/0027-price-days.ts'
import * as teamMonths from './migrations/0028-team-months.ts'
import * as ledgerTransfer from './migrations/0029-ledger-transfer.ts'
import * as liveCheaper from './migrations/0030-live-cheaper.ts'
import * as liveNumbered from './migrations/0031-live-numbered.ts'
import * as teamMonthRow from './migrations/0032-team-month-row.ts'
import * as liveUnheard from './migrations/0033-live-unheard.ts'
import * as tradeBatch from './migrations/0034-trade-batch.ts'
import * as liveBalanceBefore from './migrations/0035-live-balance-before.ts'
import * as ledgerTransferOneUpdate from './migrations/0036-ledger-transfer-one-update.ts'
import * as tradeBookCatchUp from './migrations/0037-trade-book-catch-up.ts'
import * as withdrawalSenderLease from './migrations/0038-withdrawal-sender-lease.ts'
import { type NotifySource, notifySources } from './notify.ts'
import { PGliteDialect } from './pglite-dialect.ts'
import type { DB } from './schema.ts'
import { type DbFaultHook, TrackingPostgresDialect } from './transient.ts'

export type Database = Kysely<DB>

const migrations: Record<string, Migration> = {
  '0001-init': init,
  '0002-ledger': ledger,
  '0003-payment-intents': paymentIntents,
  '0004-withdrawals': withdrawals,
  '0005-config-versions': configVersions,
  '0006-nodes': nodes,
  '0007-positions': positions,
  '0008-notices': notices,
  '0009-team': team,
  '0010-team-writes': teamWrites,
  '0011-new-power-counters': newPowerCounters,
  '0012-trade': trade,
  '0013-admin': admin,
  '0014-settlement-perf': settlementPerf,
  '0015-idempotency': idempotency,
  '0016-four-eyes': fourEyes,
  '0018-fixed-settings': fixedSettings,
  '0019-liabilities': liabilities,
  '0020-economics': economics,
  '0021-rate-limits': rateLimits,
  '0023-session-idle': sessionIdle,
  '0024-live': live,
  '0025-campaigns': campaigns,
  '0026-clean-rich-text': cleanRichText,
  '0027-price-days': priceDays,
  '0028-team-months': teamMonths,
  '0029-ledger-transfer': ledgerTransfer,
  '0030-live-cheaper': liveCheaper,
  '0031-live-numbered': liveNumbered,
  '0032-team-month-row': teamMonthRow,
  '0033-live-unheard': liveUnheard,
  '0034-trade-batch': tradeBatch,
  '0035-live-balance-before': liveBalanceBefore,
  '0036-ledger-transfer-one-update': ledgerTransferOneUpdate,
  '0037-trade-book-catch-up': tradeBookCatchUp,
  '0038-withdrawal-sender-lease': withdrawalSenderLease,
}

/**
 * Opens the database: PostgreSQL when a URL is given, otherwise the embedded PGlite database stored in `dir`
 * (in memory when `dir` is undefined, for tests). A PostgreSQL connection that breaks (the server restarted, the
 * backend terminated) is reported to `onConnectionError` and replaced by the pool, never fatal to the process; a
 * request caught by it is run again when that is safe (db/transient.ts).
 */
export async function openDatabase(options: {
  url?: string
  /**
   * Where the live channel LISTENs (db/notify.ts), when `url` goes through a transaction-mode pooler that does not
   * pass notifications: a direct or session-mode URL of the same database. Default: `url`.
   */
  listenUrl?: string
  /**
   * Whether the statements db/pg-driver.ts names go out as named prepared statements (default true): false behind a
   * transaction-mode pooler that does not keep them (docs/scaling.md).
   */
  preparedStatements?: boolean
  dir?: string
  onConnectionError?: (error: Error) => void
  /** Where the database's outage and recovery are logged (lib/reachability.ts): a new connection failing, then one opening. */
  log?: OutageLog
  /** PostgreSQL only: the simulator's faults (db/transient.ts); never given by the server. */
  faults?: DbFaultHook
}): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10, types: { getTypeParser } })
    const report = options.onConnectionError ?? (() => {})
    const reach = new Reachability(options.log, 'database', { host: URL.parse(options.url)?.host ?? '' })
    // Every new connection (Kysely asks with connect()) tells whether the server answers: an outage is one warning,
    // its end one info line. The callback form (pool.query's) is passed through untouched.
    const connect = pool.connect.bind(pool)
    pool.connect = ((callback?: Parameters<typeof pool.connect>[0]) => {
      if (callback) return connect(callback)
      return connect().then(
        (client) => {
          reach.answered()
          return client
        },
        (error: unknown) => {
          reach.failed(error)
          throw error
        },
      )
    }) as typeof pool.connect
    // Without these listeners node-postgres throws the error of a connection that broke while idle in the pool (or
    // checked out between two queries) as an uncaught exception, which ends the process.
    pool.on('error', () => {}) // an idle client's error: reported by its own listener
    pool.on('connect', (client) => client.on('error', report))
    return withNotifySource(
      new Kysely<DB>({
        dialect: new TrackingPostgresDialect({
          pool,
          faults: options.faults,
          preparedStatements: options.preparedStatements ?? true,
        }),
      }),
      {
        url: options.listenUrl ?? options.url,
      },
    )
  }
  if (options.dir) await fs.mkdir(path.dirname(options.dir), { recursive: true })
  const client = new PGlite(options.dir)
  await client.waitReady
  return pgliteDatabase(client)
}

/** The Kysely database of an open PGlite instance. */
export function pgliteDatabase(client: PGlite): Database {
  return withNotifySource(new Kysely<DB>({ dialect: new PGliteDialect(client) }), { pglite: client })
}

function withNotifySource(db: Database, source: NotifySource): Database {
  notifySources.set(db, source)
  return db
}

const DATE_OID = 1082
/** node-postgres' parsers, except date: kept as 'YYYY-MM-DD' (its default makes a local-time Date of it). */
const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
  oid === DATE_OID ? (value: string) => value : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser

/**
 * Brings the schema up to date (or to the migration named `to`, for upgrade tests); safe when several instances start
 * at once (Kysely takes a lock).
 */
export async function migrate(
  db: Database,
  to?: string,
  log?: { info: (fields: object, message: string) => void },
): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } })
  const { error, results } = await (to ? migrator.migrateTo(to) : migrator.migrateToLatest())
  // One line per migration this start applied (none when the schema was up to date): docs/operations.md "Logs".
  for (const result of results ?? [])
    if (result.status === 'Success') log?.info({ migration: result.migrationName }, 'migration applied')
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`)
}
