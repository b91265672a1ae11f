// `npm run backup` / `npm run restore`: the database and the files under DATA_DIR, in one directory.
//
//   npm run backup [-- --out DIR]        DIR defaults to BACKUP_DIR or ./backups, a new solpledge-<time> inside it
//   npm run restore -- FROM               into DATABASE_URL (an empty database) or an empty DATA_DIR/pglite
//
// PostgreSQL (DATABASE_URL set): pg_dump's custom format, a consistent snapshot taken while the server runs. PGlite
// (no DATABASE_URL): PGlite's own dump of DATA_DIR/pglite, which one process opens at a time, so stop the server
// first. Also copied: everything else under DATA_DIR but the local chain's state (keys/ — the operator token and, on the
// local chain, the generated keys — and uploads/), and the HOT_WALLET_KEYFILE when set. Not included, to keep apart:
// HOT_WALLET_KEY and the other settings of the environment (docs/operations.md, "Backup and restore").
// Plain Node with the server's own dependencies: it runs on a production install (no TypeScript, no dev tools).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { findBinDir } from './postgres.mjs'

const DATABASE_DUMP = 'database.pgdump'
const PGLITE_DUMP = 'pglite.tar.gz'
/** DATA_DIR entries that are not copied: the database (dumped instead) and the local chain's state. */
const NOT_COPIED = new Set(['pglite', 'localnet'])

const pgTool = (name) => {
  const dir = findBinDir()
  return dir ? path.join(dir, name) : name
}

/** Runs a PostgreSQL client tool without blocking this process (the server's own writes may go on meanwhile). */
function runTool(name, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(pgTool(name), args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', (error) =>
      reject(new Error(`${name}: ${error.message} (install the PostgreSQL client: apt-get install postgresql-client)`)),
    )
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name} failed: ${stderr}`))))
  })
}

/** A URL without its password, for the manifest and messages. */
const redact = (url) => {
  const u = new URL(url)
  if (u.password) u.password = '***'
  return u.toString()
}

const pgliteDir = (dataDir) => path.join(dataDir, 'pglite')

/** Opens DATA_DIR/pglite, refusing while a server has it open (PGlite is one process's database). */
async function openPglite(dir, options) {
  if (fs.existsSync(path.join(dir, 'postmaster.pid')))
    throw new Error(
      `${dir} is open (postmaster.pid): stop the server first. If no server runs (it was killed), delete ${path.join(dir, 'postmaster.pid')}`,
    )
  const { PGlite } = await import('@electric-sql/pglite')
  const pg = new PGlite(dir, options)
  await pg.waitReady
  return pg
}

function copyFiles(from, to, skip = new Set()) {
  const copied = []
  if (!fs.existsSync(from)) return copied
  for (const entry of fs.readdirSync(from)) {
    if (skip.has(entry)) continue
    fs.cpSync(path.join(from, entry), path.join(to, entry), { recursive: true, preserveTimestamps: true })
    copied.push(entry)
  }
  return copied
}

/**
 * Backs up into `out` (created; must not exist): the database, DATA_DIR's files and the hot-wallet key file, with a
 * manifest.json saying what is there. `dumpPglite` (tests) dumps a PGlite database this process already has open;
 * it must not run inside another session's transaction.
 */
export async function backup(options) {
  fs.mkdirSync(path.dirname(options.out), { recursive: true })
  fs.mkdirSync(options.out, { mode: 0o700 })
  try {
    return await backupInto(options)
  } catch (error) {
    fs.rmSync(options.out, { recursive: true, force: true }) // no half backup that looks like one
    throw error
  }
}

async function backupInto({ out, databaseUrl, dataDir, hotWalletKeyfile, dumpPglite }) {
  const manifest = { format: 1, created_at: new Date().toISOString(), data_dir: [], hot_wallet_keyfile: null }
  if (databaseUrl) {
    await runTool('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      '--file',
      path.join(out, DATABASE_DUMP),
      databaseUrl,
    ])
    manifest.database = { kind: 'postgresql', file: DATABASE_DUMP, from: redact(databaseUrl) }
  } else {
    let dump
    if (dumpPglite) dump = await dumpPglite()
    else {
      const pg = await openPglite(pgliteDir(dataDir))
      try {
        dump = await pg.dumpDataDir('gzip')
      } finally {
        await pg.close()
      }
    }
    fs.writeFileSync(path.join(out, PGLITE_DUMP), Buffer.from(await dump.arrayBuffer()), { mode: 0o600 })
    manifest.database = { kind: 'pglite', file: PGLITE_DUMP, from: pgliteDir(dataDir) }
  }
  manifest.data_dir = copyFiles(dataDir, path.join(out, 'data'), NOT_COPIED)
  if (hotWalletKeyfile) {
    fs.mkdirSync(path.join(out, 'keys'), { mode: 0o700 })
    fs.copyFileSync(hotWalletKeyfile, path.join(out, 'keys', 'hot-wallet.json'))
    fs.chmodSync(path.join(out, 'keys', 'hot-wallet.json'), 0o600)
    manifest.hot_wallet_keyfile = { file: 'keys/hot-wallet.json', from: path.resolve(hotWalletKeyfile) }
  }
  fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  return manifest
}

/**
 * Restores the backup in `from` into an empty database (DATABASE_URL's, or DATA_DIR/pglite, which must not exist) and
 * copies its DATA_DIR files into `dataDir` without overwriting any. The hot-wallet key file is left in the backup for
 * the operator to put where HOT_WALLET_KEYFILE points.
 */
export async function restore({ from, databaseUrl, dataDir }) {
  const manifest = JSON.parse(fs.readFileSync(path.join(from, 'manifest.json'), 'utf8'))
  const kind = manifest.database.kind
  if ((kind === 'postgresql') !== Boolean(databaseUrl))
    throw new Error(
      `this backup is of ${kind === 'postgresql' ? 'PostgreSQL: set DATABASE_URL' : 'PGlite: unset DATABASE_URL'} to restore it`,
    )
  if (databaseUrl) {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      const { rows } = await client.query(
        "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
      )
      if (rows[0].n > 0) throw new Error(`${redact(databaseUrl)} is not empty: restore into a new database`)
    } finally {
      await client.end()
    }
    await runTool('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      '--dbname',
      databaseUrl,
      path.join(from, DATABASE_DUMP),
    ])
  } else {
    const dir = pgliteDir(dataDir)
    if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
      throw new Error(`${dir} is not empty: restore into a new DATA_DIR (or move it away)`)
    fs.mkdirSync(dataDir, { recursive: true })
    const dump = new Blob([fs.readFileSync(path.join(from, PGLITE_DUMP))])
    const pg = await openPglite(dir, { loadDataDir: dump })
    await pg.close()
  }
  const data = path.join(from, 'data')
  const clashes = fs.existsSync(data)
    ? fs.readdirSync(data).filter((entry) => fs.existsSync(path.join(dataDir, entry)))
    : []
  if (clashes.length > 0) throw new Error(`${dataDir} already has ${clashes.join(', ')}: restore into a new DATA_DIR`)
  copyFiles(data, dataDir)
  return manifest
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  const [command, from] = positionals
  if (values.help || !['backup', 'restore'].includes(command) || (command === 'restore' && !from)) {
    console.log('usage: npm run backup [-- --out DIR]  |  npm run restore -- BACKUP_DIR (see docs/operations.md)')
    process.exit(values.help ? 0 : 2)
  }
  const databaseUrl = process.env.DATABASE_URL || undefined
  const dataDir = path.resolve(process.env.DATA_DIR || 'data')
  if (command === 'backup') {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const out = path.resolve(values.out ?? path.join(process.env.BACKUP_DIR || 'backups', `solpledge-${stamp}`))
    const manifest = await backup({ out, databaseUrl, dataDir, hotWalletKeyfile: process.env.HOT_WALLET_KEYFILE })
    console.log(
      `backup ${out}: ${manifest.database.kind} database, DATA_DIR ${manifest.data_dir.join(' ') || '(nothing)'}`,
    )
    if (manifest.hot_wallet_keyfile) console.log(`  with the hot-wallet key file (${manifest.hot_wallet_keyfile.from})`)
    console.log('  not included: the environment (HOT_WALLET_KEY, TREASURY_ADDRESS, mints, URLs): keep it apart')
  } else {
    const manifest = await restore({ from: path.resolve(from), databaseUrl, dataDir })
    console.log(
      `restored the ${manifest.database.kind} database of ${manifest.created_at} and DATA_DIR ${manifest.data_dir.join(' ') || '(nothing)'}`,
    )
    if (manifest.hot_wallet_keyfile)
      console.log(
        `  the hot-wallet key file is in ${path.join(from, manifest.hot_wallet_keyfile.file)}: put it where HOT_WALLET_KEYFILE points`,
      )
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  main().catch((error) => {
    console.error(error.message ?? error)
    process.exit(1)
  })
