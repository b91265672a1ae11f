// The simulator's database: one per run, copied from a template migrated once per process (the simulated clock of
// clock.ts installed before the migrations), on PGlite in this process or on a PostgreSQL cluster (--database-url).
// Three ways in: `open(faults)` gives each incarnation of the server its own connections with the faults injected
// (db/transient.ts), `observer` reads for the invariants without faults, and `raw` runs the simulator's own statements
// (the clock, the commit-status answers) beside everything.
import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { Kysely } from 'kysely'
import pg from 'pg'
import { type Database, migrate, openDatabase } from '../src/db/index.ts'
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

let pgliteTemplate: Promise<Blob> | undefined

/** The migrated PGlite data directory every run starts from (made once per process). */
function template(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const client = new PGlite()
    for (const statement of CLOCK_SQL(START_MS)) await client.exec(statement)
    await client.exec(`alter database postgres set search_path = ${SEARCH_PATH}`)
    await client.exec(`set search_path = ${SEARCH_PATH}`)
    const db = new Kysely<DB>({ dialect: new PGliteDialect(client) })
    await migrate(db)
    const dump = await client.dumpDataDir('none')
    await db.destroy()
    return dump
  })()
  return pgliteTemplate
}

async function pgliteEngine(): Promise<Engine> {
  const client = new PGlite({ loadDataDir: await template() })
  await client.waitReady
  const raw = async (sql: string, params: unknown[] = []) =>
    (await client.query<Record<string, unknown>>(sql, params)).rows
  const update = clockUpdate()
  await raw(update.sql, update.params)
  const observer = new Kysely<DB>({ dialect: new PGliteDialect(client) })
  return {
    kind: 'pglite',
    raw,
    // PGlite is one session: the incarnation's driver queues its transactions on it, as the server's does.
    open: async (faults) => new Kysely<DB>({ dialect: trackingDialect(new PGliteDialect(client), faults) }),
    // Destroying a Kysely over PGlite would close the one session: a crashed incarnation's is only dropped.
    release: async () => {},
    observer,
    syncClock: async () => {
      const { sql, params } = clockUpdate()
      await raw(sql, params)
    },
    close: async () => {
      await observer.destroy()
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
