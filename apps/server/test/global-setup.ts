// Once per run of the API tests: the migrated template that freshDatabase() copies for each test file (see
// fixtures/database.ts), made here so that no file runs the migrations for a database it only wants up to date; and
// the server compiled once for the tests that run it as a process (fixtures/server-bundle.ts).
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely } from 'kysely'
import { migrate, openDatabase } from '../src/db/index.ts'
import { PGliteDialect } from '../src/db/pglite-dialect.ts'
import type { DB } from '../src/db/schema.ts'
import { postgresCluster } from './fixtures/database.ts'
import { buildServerBundle } from './fixtures/server-bundle.ts'

export default async function setup() {
  const bundle = await buildServerBundle()
  const adminUrl = process.env.TEST_DATABASE_URL
  if (adminUrl) {
    const { admin, urlOf } = postgresCluster(adminUrl)
    const name = `template_${randomBytes(6).toString('hex')}`
    await admin(`create database ${name}`)
    const db = await openDatabase({ url: urlOf(name) })
    await migrate(db)
    await db.destroy()
    process.env.TEST_DATABASE_TEMPLATE = name
    return async () => {
      delete process.env.TEST_DATABASE_TEMPLATE
      await admin(`drop database if exists ${name}`)
      bundle.remove()
    }
  }
  // A PGlite data directory (copied as is for a server process's DATA_DIR: fixtures/crash.ts), and its dump (loaded
  // into an in-memory PGlite for a test file's own database: fixtures/database.ts). Every open copies the dump, so it
  // holds only what a test uses: WAL segments of 1 MB instead of 16, and no template databases (tests never create a
  // database on PGlite) — 43 → 17 MB, and a third less CPU per open (docs/benchmarks.md).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-template-'))
  const data = path.join(dir, 'pglite')
  const client = new PGlite(data, { initDbStartParams: ['--wal-segsize=1'] })
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) })
  await migrate(db)
  for (const name of ['template0', 'template1'])
    for (const statement of [`alter database ${name} is_template false`, `drop database ${name}`])
      await client.query(statement)
  await client.query('checkpoint')
  const file = path.join(dir, 'pglite.tar')
  fs.writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()))
  await db.destroy()
  process.env.TEST_PGLITE_TEMPLATE = file
  process.env.TEST_PGLITE_TEMPLATE_DIR = data
  return () => {
    delete process.env.TEST_PGLITE_TEMPLATE
    delete process.env.TEST_PGLITE_TEMPLATE_DIR
    fs.rmSync(dir, { recursive: true, force: true })
    bundle.remove()
  }
}
