// The simulator's database of one run, as the migrations left it (the simulated clock of clock.ts installed before
// them): PGlite in this process, migrated once and emptied for each run, or a copy of a template database on a
// PostgreSQL cluster (--database-url).
// Three ways in: `open(faults)` gives each incarnation of the server its own connections with the faults injected
// (db/transient.ts), `observer` reads for the invariants without faults, and `raw` runs the simulator's own statements
// (the clock, the commit-status answers) beside everything.
import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { Kysely } from 'kysely'
import pg from 'pg'
import { type Database, migrate, openDatabase } from '../src/db/index.ts'
import { notifySources } from '../src/db/notify.ts'
import { PGliteDialect } from '../src/db/pglite-dialect.ts'
import type { DB } from '../src/db/schema.ts'
import { type DbFaultHook, trackingDialect } from '../src/db/transient.ts'
import { CLOCK_SQL, clockUpdate, SEARCH_PATH, START_MS } from './clock.ts'

export interface Engine {
  kind: 'pglite' | 'postgres'
  /** A statement of the simulator's own, outside every fault. */
  raw(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>
  /** The server's database for one incarnation, every statement through `faults`. */
  open(faults: DbFaultHook): Promise<Database>
  /** Closes what `open` gave (an incarnation that crashed): never the data. */
  release(db: Database): Promise<void>
  /** Reads without faults, between steps. */
  observer: Database
  /** Writes the simulated time to the database's clock. */
  syncClock(): Promise<void>
  close(): Promise<void>
}

/** The tables a run writes: every table of the schema but the migrations' own. */
const TABLES = `select string_agg(quote_ident(tablename), ', ') as list from pg_tables
  where schemaname = 'public' and tablename not like 'kysely_migration%'`

/** The process's PGlite database, migrated once, and whether a run holds it. */
let shared: { client: PGlite; tables: string; busy: boolean } | undefined

/**
 * A clean PGlite database: the process's one, emptied (the tables a run made dropped — a snapshot's partition of
 * leaves —, every other table truncated and its id sequence restarted: the migrations write no rows, so this is the
 * state they left), or a new one migrated with the simulated clock when there is none yet or a run never gave it back
 * (a stuck step).
 */
async function cleanPGlite() {
  if (shared && !shared.busy) {
    shared.busy = true
    const { rows } = await shared.client.query<{ list: string | null }>(
      `
      select string_agg(quote_ident(tablename), ', ') as list from pg_tables
      where schemaname = 'public' and quote_ident(tablename) <> all ($1::text[])
        and tablename not like 'kysely_migration%'`,
      [shared.tables.split(', ')],
    )
    if (rows[0]?.list) await shared.client.exec(`drop table ${rows[0].list} cascade`)
    await shared.client.exec(`truncate table ${shared.tables} restart identity cascade`)
    return shared
  }
  const client = new PGlite()
  for (const statement of CLOCK_SQL(START_MS)) await client.exec(statement)
  await client.exec(`set search_path = ${SEARCH_PATH}`)
  await migrate(new Kysely<DB>({ dialect: new PGliteDialect(client) }))
  const [row] = (await client.query<{ list: string }>(TABLES)).rows
  const tables = row?.list as string
  const written = (
    await client.query<{ n: number }>(
      `select count(*)::int as n from (select 1 from ${tables.split(', ').join(' union all select 1 from ')}) t`,
    )
  ).rows[0]?.n
  if (written)
    throw new Error('a migration writes rows: the simulator would have to keep them when it empties the database')
  shared = { client, tables, busy: true }
  return shared
}

async function pgliteEngine(): Promise<Engine> {
  const held = await cleanPGlite()
  const { client } = held
  const raw = async (sql: string, params: unknown[] = []) =>
    (await client.query<Record<string, unknown>>(sql, params)).rows
  const update = clockUpdate()
  await raw(update.sql, update.params)
  // Kyselys over PGlite are only dropped, never destroyed: that would close the one session.
  const observer = new Kysely<DB>({ dialect: new PGliteDialect(client) })
  return {
    kind: 'pglite',
    raw,
    // PGlite is one session: the incarnation's driver queues its transactions on it, as the server's does.
    // Its notifications (the live channel's LISTEN) come from the same session, as openDatabase records for PGlite.
    open: async (faults) => {
      const db = new Kysely<DB>({ dialect: trackingDialect(new PGliteDialect(client), faults) })
      notifySources.set(db, { pglite: client })
      return db
    },
    release: async () => {},
    observer,
    syncClock: async () => {
      const { sql, params } = clockUpdate()
      await raw(sql, params)
    },
    close: async () => {
      held.busy = false
    },
  }
}

const postgresTemplates = new Map<string, Promise<string>>()

/** A database on the cluster of `adminUrl` with the clock and the schema, copied for each run. */
function postgresTemplate(adminUrl: string): Promise<string> {
  let name = postgresTemplates.get(adminUrl)
  if (!name) {
    name = (async () => {
      const templateName = `sim_template_${randomBytes(5).toString('hex')}`
      await admin(adminUrl, `create database ${templateName}`)
      await admin(adminUrl, `alter database ${templateName} set search_path = ${SEARCH_PATH}`)
      const url = urlOf(adminUrl, templateName)
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      for (const statement of CLOCK_SQL(START_MS)) await client.query(statement)
      await client.end()
      const db = await openDatabase({ url })
      await migrate(db)
      await db.destroy()
      return templateName
    })()
    postgresTemplates.set(adminUrl, name)
  }
  return name
}

/** Drops the templates this process made (the CLI calls it once at the end). */
export async function dropTemplates() {
  for (const [adminUrl, name] of postgresTemplates) await admin(adminUrl, `drop database if exists ${await name}`)
  postgresTemplates.clear()
}

async function admin(adminUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

const urlOf = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

async function postgresEngine(adminUrl: string): Promise<Engine> {
  const name = `sim_${randomBytes(6).toString('hex')}`
  await admin(adminUrl, `create database ${name} template ${await postgresTemplate(adminUrl)}`)
  // A database's settings are not copied from its template.
  await admin(adminUrl, `alter database ${name} set search_path = ${SEARCH_PATH}`)
  const url = urlOf(adminUrl, name)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const raw = async (sql: string, params: unknown[] = []) =>
    (await client.query<Record<string, unknown>>(sql, params)).rows
  const update = clockUpdate()
  await raw(update.sql, update.params)
  const observer = await openDatabase({ url })
  const opened = new Set<Database>()
  return {
    kind: 'postgres',
    raw,
    open: async (faults) => {
      const db = await openDatabase({ url, faults })
      opened.add(db)
      return db
    },
    release: async (db) => {
      opened.delete(db)
      await db.destroy()
    },
    observer,
    syncClock: async () => {
      const { sql, params } = clockUpdate()
      await raw(sql, params)
    },
    close: async () => {
      for (const db of opened) await db.destroy()
      await observer.destroy()
      await client.end()
      await admin(adminUrl, `drop database if exists ${name} with (force)`)
    },
  }
}

/** The database of one run: PGlite in this process, or a new database on the PostgreSQL cluster of `url`. */
export const openEngine = (url?: string): Promise<Engine> => (url ? postgresEngine(url) : pgliteEngine())
