// Once per run of the API tests: the migrated template that freshDatabase() copies for each test file (see
// fixtures/database.ts), made here so that no file runs the migrations for a database it only wants up to date.
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

export default async function setup() {
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
    }
  }
  const client = new PGlite()
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) })
  await migrate(db)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-template-'))
  const file = path.join(dir, 'pglite.tar')
  fs.writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()))
  await db.destroy()
  process.env.TEST_PGLITE_TEMPLATE = file
  return () => {
    delete process.env.TEST_PGLITE_TEMPLATE
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
