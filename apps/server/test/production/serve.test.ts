// The production build (issue 15 item 1): `npm run build` output started as `npm run serve` starts it — plain node, no
// TypeScript loader, from a directory where only the server's production dependencies resolve — against PostgreSQL and
// a cluster that is not the local chain as far as the server knows (the local chain behind SOLANA_RPC_URL). Also: the
// lockfile is in step with every package.json, so `npm ci` works on a fresh clone. Run `npm run build` first.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { API_BASE, HEALTH_PATHS } from '@solpledge/contract'
import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { freePort } from '../../../../scripts/lib.mjs'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { startPostgres } from '../../../../scripts/postgres.mjs'
import { openDatabase } from '../../src/db/index.ts'
import { createPostgresDatabase, productionEnv } from '../helpers.ts'

const ROOT = path.resolve(import.meta.dirname, '../../../..')
const SERVER_DIST = path.join(ROOT, 'apps/server/dist/server.js')
const CONTRACT_DIST = path.join(ROOT, 'packages/contract/dist/index.js')
const WEB_DIST = path.join(ROOT, 'apps/web/dist')

type LockEntry = {
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  link?: boolean
  resolved?: string
  dev?: boolean
}
type Lock = { packages: Record<string, LockEntry> }

/**
 * The lockfile paths of everything the server's production dependencies pull in, resolved as Node resolves them
 * (a package's own node_modules first, then its parents'). Throws when a required one is not in the lockfile.
 */
function productionClosure(lock: Lock, workspace: string): Set<string> {
  const found = new Set<string>()
  const resolve = (from: string, name: string) => {
    for (let at = from; ; ) {
      const candidate = `${at ? `${at}/` : ''}node_modules/${name}`
      if (lock.packages[candidate]) return candidate
      if (!at) return undefined
      const parent = at.lastIndexOf('/node_modules/')
      at = parent > 0 ? at.slice(0, parent) : ''
    }
  }
  const visit = (from: string, entry: LockEntry) => {
    const optional = new Set([
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.entries(entry.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta.optional)
        .map(([name]) => name),
    ])
    const names = [entry.dependencies, entry.optionalDependencies, entry.peerDependencies].flatMap((d) =>
      Object.keys(d ?? {}),
    )
    for (const name of names) {
      const at = resolve(from, name)
      if (!at) {
        if (optional.has(name)) continue
        throw new Error(`${name} (needed by ${from || workspace}) is not in package-lock.json`)
      }
      if (found.has(at)) continue
      found.add(at)
      const target = lock.packages[at] as LockEntry
      if (target.link) visit(target.resolved as string, lock.packages[target.resolved as string] as LockEntry)
      else visit(at, target)
    }
  }
  visit(workspace, lock.packages[workspace] as LockEntry)
  return found
}

/**
 * A directory laid out as a production install: the compiled server, the compiled contract (no sources) and, under
 * node_modules, only the server's production dependencies (links to the installed ones).
 */
function productionInstall(dir: string) {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as Lock
  const closure = productionClosure(lock, 'apps/server')
  for (const at of closure) {
    const entry = lock.packages[at] as LockEntry
    if (at.includes('/node_modules/')) continue // nested: reached through its parent's real path
    const target = path.join(dir, at)
    fs.mkdirSync(path.dirname(target), { recursive: true })
    if (entry.link) {
      const source = path.join(ROOT, entry.resolved as string)
      fs.cpSync(path.join(source, 'package.json'), path.join(target, 'package.json'))
      fs.cpSync(path.join(source, 'dist'), path.join(target, 'dist'), { recursive: true })
    } else fs.symlinkSync(path.join(ROOT, at), target)
  }
  fs.cpSync(path.join(ROOT, 'apps/server/package.json'), path.join(dir, 'apps/server/package.json'))
  fs.cpSync(path.join(ROOT, 'apps/server/dist'), path.join(dir, 'apps/server/dist'), { recursive: true })
  return closure
}

/** Starts `node …/server.js` as `npm run serve` does; resolves with its URL once it says it is ready. */
function serve(cwd: string, env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--conditions=compiled', path.join(cwd, 'apps/server/dist/server.js')],
    // Only what a service manager would give: no NODE_OPTIONS, no loader, no PATH to node_modules/.bin.
    { cwd, env: { PATH: '/usr/bin:/bin', NODE_ENV: 'production', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk
      const match = output.match(/solpledge ready url=(\S+)/)
      if (match) resolve(match[1] as string)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${output}`)))
  })
  return { child, ready, output: () => output }
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode)
    child.once('exit', (code) => resolve(code))
    child.kill('SIGTERM')
  })

describe('the production build, started as npm run serve starts it', () => {
  let localnet: Localnet
  let database: { url: string; drop: () => Promise<void> }
  let dir: string
  beforeAll(async () => {
    for (const file of [SERVER_DIST, CONTRACT_DIST, path.join(WEB_DIST, 'index.html')])
      if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build first`)
    localnet = await startLocalnet({ port: 0, slotMs: 50 })
    if (process.env.TEST_DATABASE_URL) database = await createPostgresDatabase(process.env.TEST_DATABASE_URL)
    else {
      const pg = await startPostgres()
      database = { url: pg.url, drop: async () => pg.stop() }
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-serve-'))
  }, 120_000)
  afterAll(async () => {
    await localnet?.close()
    await database?.drop()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('runs on production dependencies only, answers ready and serves the web app, with neutral business values', async () => {
    const closure = productionInstall(dir)
    // The dev-only tools and the local chain are not resolvable from the install (typescript is: @solana/kit names it
    // as a peer, so npm installs it, but nothing loads it).
    for (const name of ['tsx', 'vitest', 'vite', '@solpledge/localnet', '@solana/web3.js', '@solana/spl-token'])
      expect(closure.has(`node_modules/${name}`), name).toBe(false)
    expect(fs.existsSync(path.join(dir, 'node_modules/@solpledge/contract/src'))).toBe(false)

    const port: number = await freePort()
    const token = (symbol: string) => localnet.tokens.find((t) => t.symbol === symbol)?.mint as string
    const env = productionEnv({
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: database.url,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SOLANA_RPC_URL: localnet.rpcUrl,
      SOLANA_WS_URL: localnet.wsUrl,
      PRODUCT_MINT: token('PLG'),
      USDT_MINT: token('USDT'),
      WEB_DIST,
      LOG_LEVEL: 'warn',
    }) as Record<string, string>
    const server = serve(dir, env)
    try {
      const url = await server.ready
      const ready = await fetch(url + API_BASE + HEALTH_PATHS.ready)
      expect(ready.status).toBe(200)
      expect(await ready.json()).toMatchObject({
        data: { status: 'ok', database: { ok: true }, chain: { ok: true, cluster: 'devnet' } },
      })
      const page = await fetch(`${url}/pledge`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('<div id="root"')
      const config = (await (await fetch(`${url + API_BASE}/config`)).json()) as { data: unknown }
      expect(config.data).toMatchObject({ cluster: 'devnet', demoWallet: false })

      // No demo business values on a real cluster: nothing for sale and no rewards until the operator sets them.
      const db = await openDatabase({ url: database.url })
      try {
        const versions = await db.selectFrom('config_versions').select('value').execute()
        expect(versions).toHaveLength(1)
        expect(versions[0]?.value).toMatchObject({
          nodeLevels: [],
          finance: [],
          referralRewards: [],
          nodePoolDaily: '0',
        })
      } finally {
        await db.destroy()
      }
    } finally {
      expect(await stop(server.child), server.output()).toBe(0)
    }
  })
})

describe('the lockfile', () => {
  it('is in step with every package.json (npm ci on a fresh clone installs it unchanged)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-lock-'))
    try {
      const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }
      for (const file of [
        'package.json',
        'package-lock.json',
        '.npmrc',
        ...root.workspaces.map((w) => `${w}/package.json`),
      ])
        fs.cpSync(path.join(ROOT, file), path.join(dir, file))
      // From the lockfile alone: offline, so a package.json that wants anything the lockfile lacks fails here.
      const npm = spawnSync('npm', ['install', '--package-lock-only', '--offline', '--ignore-scripts'], {
        cwd: dir,
        encoding: 'utf8',
      })
      expect(npm.status, npm.stderr).toBe(0)
      expect(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')).toBe(
        fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'),
      )
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
