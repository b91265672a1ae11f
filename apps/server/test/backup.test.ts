// Backup and restore (docs/operations.md#backup-and-restore, scripts/backup.mjs): a backup taken while transfers keep
// being written restores elsewhere to exactly the books as they stood at one moment — the same transfers up to it, the
// same balances, the same ledger totals (the liabilities side of solvency), sound invariants — with DATA_DIR's files
// and the hot-wallet key.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { backup, restore } from '../../../scripts/backup.mjs'
import { type Database, migrate, openDatabase } from '../src/db/index.ts'
import { PGliteDialect } from '../src/db/pglite-dialect.ts'
import type { DB } from '../src/db/schema.ts'
import { checkInvariants, totals, transfer, userAccount } from '../src/modules/ledger/service.ts'
import { addOffChainAssets, createPostgresDatabase, creditAvailable, dbKind } from './helpers.ts'

const ASSETS = ['PLG', 'USDT']
const USERS = 12

interface Source {
  db: Database
  url?: string
  dataDir: string
  dumpPglite?: () => Promise<Blob>
  close: () => Promise<void>
}

/**
 * The database to back up: PostgreSQL (TEST_DATABASE_URL's cluster), or PGlite — in memory, as a data directory on
 * disk takes a minute to create on a busy machine; the backup is the same dump of it.
 */
async function openSource(dataDir: string): Promise<Source> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (adminUrl) {
    const { url, drop } = await createPostgresDatabase(adminUrl)
    const db = await openDatabase({ url })
    return { db, url, dataDir, close: () => db.destroy().then(drop) }
  }
  const client = new PGlite()
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) })
  return {
    db,
    dataDir,
    // Between two sessions' work, as a transaction holds PGlite until it ends.
    dumpPglite: () => db.connection().execute(() => client.dumpDataDir('gzip')),
    close: () => db.destroy(),
  }
}

/** Per account, its balance replayed from the transfers up to `lastId` (non-zero ones). */
async function replayedBalances(db: Database, lastId: string) {
  const { rows } = await sql<{ id: string; balance: string }>`
    select a.id, coalesce(c.total, 0) - coalesce(d.total, 0) as balance from ledger_accounts a
    left join (select credit_account_id as id, sum(amount) as total from ledger_transfers where id <= ${lastId} group by 1) c on c.id = a.id
    left join (select debit_account_id as id, sum(amount) as total from ledger_transfers where id <= ${lastId} group by 1) d on d.id = a.id
    order by a.id`.execute(db)
  return rows.filter((r) => BigInt(r.balance) !== 0n).map((r) => ({ id: String(r.id), balance: String(r.balance) }))
}

const transfers = (db: Database) =>
  db
    .selectFrom('ledger_transfers')
    .select(['id', 'debit_account_id', 'credit_account_id', 'amount'])
    .orderBy('id')
    .execute()

describe(`backup and restore of a busy database (${dbKind})`, () => {
  let tmp: string
  let source: Source
  let users: string[]
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-backup-'))
    const dataDir = path.join(tmp, 'data')
    fs.mkdirSync(path.join(dataDir, 'keys'), { recursive: true })
    fs.writeFileSync(path.join(dataDir, 'keys', 'operator-token'), 'token\n', { mode: 0o600 })
    fs.mkdirSync(path.join(dataDir, 'uploads'))
    fs.writeFileSync(path.join(dataDir, 'uploads', 'banner.png'), 'png')
    fs.mkdirSync(path.join(dataDir, 'localnet'))
    fs.writeFileSync(path.join(dataDir, 'localnet', 'state'), 'the local chain')
    source = await openSource(dataDir)
    await migrate(source.db)
    await addOffChainAssets(source.db)
    const rows = await source.db
      .insertInto('users')
      .values(Array.from({ length: USERS }, () => ({ address: randomUUID() })))
      .returning('id')
      .execute()
    users = rows.map((r) => String(r.id))
    for (const user of users) for (const asset of ASSETS) await creditAvailable(source.db, user, asset, 1_000_000n)
  }, 120_000)
  afterAll(async () => {
    await source?.close()
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
  })

  it('restores the books as they stood at one moment while transfers kept coming', async () => {
    const { db } = source
    // One writer, one transaction after another: transfer ids are in commit order, so the backup holds a prefix.
    let writing = true
    let written = 0
    let failure: unknown
    /** Waits until `n` writes are done (failing with the writer's error, if any). */
    const untilWritten = async (n: number) => {
      while (written < n) {
        if (failure) throw failure
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    }
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const asset = ASSETS[i % 2] as string
        const [from, to] = [users[i % USERS], users[(i * 7 + 3) % USERS]] as [string, string]
        if (i % 5 === 0) await creditAvailable(db, to, asset, BigInt(1 + (i % 97)))
        else if (from !== to)
          await db.transaction().execute(async (trx) =>
            transfer(trx, {
              debit: await userAccount(trx, from, asset, 'available'),
              credit: await userAccount(trx, to, asset, 'available'),
              asset,
              amount: BigInt(1 + (i % 13)),
              type: 'admin_adjustment',
              key: randomUUID(),
            }),
          )
        written++
        // In-memory PGlite answers in microtasks: yield, as requests arriving over the network would, or nothing else runs.
        await new Promise((resolve) => setImmediate(resolve))
      }
    })().catch((error: unknown) => {
      failure = error
    })
    const hotWalletKeyfile = path.join(tmp, 'hot.json')
    fs.writeFileSync(hotWalletKeyfile, '[1,2,3]', { mode: 0o600 })
    const out = path.join(tmp, 'backups', 'one')

    await untilWritten(20)
    const before = written
    const manifest = await backup({
      out,
      databaseUrl: source.url,
      dataDir: source.dataDir,
      hotWalletKeyfile,
      dumpPglite: source.dumpPglite,
    })
    const during = written - before
    // pg_dump runs beside the writes; PGlite's dump runs between two of them (one session at a time).
    if (source.url) expect(during).toBeGreaterThan(0)
    await untilWritten(before + during + 20)
    writing = false
    await writer
    expect(failure).toBeUndefined()

    expect(manifest.database.kind).toBe(source.url ? 'postgresql' : 'pglite')
    expect(manifest.data_dir.sort()).toEqual(['keys', 'uploads'])
    expect(fs.statSync(path.join(out, 'keys', 'hot-wallet.json')).mode & 0o777).toBe(0o600)
    expect(fs.readFileSync(path.join(out, 'keys', 'hot-wallet.json'), 'utf8')).toBe('[1,2,3]')

    const target = source.url ? await createPostgresDatabase(process.env.TEST_DATABASE_URL as string) : undefined
    const dataDir = path.join(tmp, 'restored')
    try {
      await restore({ from: out, databaseUrl: target?.url, dataDir })
      // Never over existing data.
      await expect(restore({ from: out, databaseUrl: target?.url, dataDir })).rejects.toThrow(/not empty|already has/)
      expect(fs.readFileSync(path.join(dataDir, 'keys', 'operator-token'), 'utf8')).toBe('token\n')
      expect(fs.readFileSync(path.join(dataDir, 'uploads', 'banner.png'), 'utf8')).toBe('png')
      expect(fs.existsSync(path.join(dataDir, 'localnet'))).toBe(false)

      const restored = await openDatabase(target ? { url: target.url } : { dir: path.join(dataDir, 'pglite') })
      try {
        await migrate(restored) // the restored schema is current: nothing to do
        const got = await transfers(restored)
        const all = await transfers(db)
        const lastId = String(got.at(-1)?.id)
        // A moment during the writes: after the set-up and the first writes, before the last ones.
        expect(got.length).toBeGreaterThanOrEqual(USERS * ASSETS.length + 20)
        expect(got.length).toBeLessThan(all.length)
        expect(got).toEqual(all.slice(0, got.length))
        expect(await replayedBalances(restored, lastId)).toEqual(await replayedBalances(db, lastId))
        const balances = await restored.selectFrom('ledger_accounts').select(['id', 'balance']).orderBy('id').execute()
        expect(
          balances
            .filter((b) => BigInt(b.balance) !== 0n)
            .map((b) => ({ id: String(b.id), balance: String(b.balance) })),
        ).toEqual(await replayedBalances(db, lastId))
        expect(await checkInvariants(restored)).toEqual([])
        for (const asset of ASSETS) {
          const liabilities = await sql<{ total: string }>`
            select coalesce(sum(case when a.id = t.credit_account_id then t.amount else -t.amount end), 0) as total
            from ledger_transfers t join ledger_accounts a on a.id in (t.credit_account_id, t.debit_account_id)
            where t.id <= ${lastId} and a.user_id is not null and t.asset = ${asset}`.execute(db)
          expect(await totals(restored, asset)).toBe(BigInt(liabilities.rows[0]?.total ?? 0))
        }
      } finally {
        await restored.destroy()
      }
    } finally {
      await target?.drop()
    }
  })
})
