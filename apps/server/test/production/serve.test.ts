// The production install (docs/operations.md "Build and serve"): `npm run build` output installed as an operator
// installs it — `npm ci --omit=dev --workspace apps/server`, the server's production dependencies only — and started as
// `npm run serve` starts it (plain node, no TypeScript loader), against PostgreSQL and a cluster that is not the local
// chain as far as the server knows (the local chain behind SOLANA_RPC_URL, answering devnet's genesis hash). There the
// operator commands run from the compiled build, the log is what an operator reads (one JSON line per request, every
// start line JSON, no secret), and a start against another cluster is refused. Also: the lockfile is in step with
// every package.json, so `npm ci` works on a fresh clone. Run `npm run build` first.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { getBase58Decoder } from '@solana/kit'
import { API_BASE, api, HEALTH_PATHS, LOGIN_TYPE, type RouteDef } from '@solpledge/contract'
import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { toProofFile } from '@solpledge/proof'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { freePort } from '../../../../scripts/lib.mjs'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { startPostgres } from '../../../../scripts/postgres.mjs'
import { GENESIS_HASHES } from '../../src/chain/cluster.ts'
import { loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/index.ts'
import { createPostgresDatabase, creditAvailable, productionEnv, TestWallet } from '../helpers.ts'

const ROOT = path.resolve(import.meta.dirname, '../../../..')
const WEB_DIST = path.join(ROOT, 'apps/web/dist')
const BUILT = ['apps/server/dist', 'packages/contract/dist', 'packages/proof/dist']
const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
/** Packages a server install must not carry: the mobile wallet's React Native peers, the browser and web build tools. */
const NOT_INSTALLED = [
  'react-native',
  'hermes-compiler',
  '@playwright/test',
  'playwright-core',
  'vite',
  'rolldown',
  'esbuild',
  'tsx',
  'vitest',
  'react',
  'lighthouse',
  '@solpledge/localnet',
  'litesvm',
  '@solana/web3.js',
]

/**
 * A production install in `dir`: the package files, the scripts and the compiled packages (no sources), then
 * `npm ci --omit=dev --workspace apps/server` from npm's cache.
 */
function productionInstall(dir: string) {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }
  for (const file of [
    'package.json',
    'package-lock.json',
    '.npmrc',
    ...root.workspaces.map((w) => `${w}/package.json`),
  ])
    fs.cpSync(path.join(ROOT, file), path.join(dir, file))
  for (const built of [...BUILT, 'scripts'])
    fs.cpSync(path.join(ROOT, built), path.join(dir, built), { recursive: true })
  const npm = spawnSync(
    'npm',
    ['ci', '--omit=dev', '--workspace', 'apps/server', '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: dir, encoding: 'utf8' },
  )
  if (npm.status !== 0) throw new Error(`npm ci --omit=dev --workspace apps/server failed:\n${npm.stderr}`)
  return npm.stderr
}

/** The environment a service manager gives: Node's directory and the system's, nothing of the development install. */
const servicePath = `${path.dirname(process.execPath)}:/usr/bin:/bin`

/**
 * A command of the install (`npm run --silent <script> -- …`), to completion. Asynchronous, so that the server's output
 * keeps being read meanwhile.
 */
function npmRun(dir: string, env: Record<string, string>, script: string, ...args: string[]) {
  return new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: dir,
      env: { PATH: servicePath, HOME: os.homedir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.on('close', (status) => resolve({ status, output }))
  })
}

/** `npm run serve` in `dir`; resolves with the ready line (JSON) once the server says it is ready. */
function serve(dir: string, env: Record<string, string>) {
  const child = spawn('npm', ['run', '--silent', 'serve'], {
    cwd: dir,
    env: { PATH: servicePath, HOME: os.homedir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const ready = new Promise<{ url: string; pid: number }>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk
      const line = output.split('\n').find((l) => l.includes('"solpledge ready url='))
      if (line) resolve(JSON.parse(line) as { url: string; pid: number })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${output}`)))
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, ready, exited, output: () => output }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Waits until `test` holds, checking every 50 ms, for at most `ms`. */
async function until(test: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const deadline = Date.now() + ms
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('the production install, started as npm run serve starts it', () => {
  let localnet: Localnet
  let cluster: string
  let database: { url: string; drop: () => Promise<void> }
  let stopCluster: (() => void) | undefined
  let dir: string
  let installLog: string
  beforeAll(async () => {
    for (const file of [...BUILT.map((d) => path.join(ROOT, d)), path.join(WEB_DIST, 'index.html')])
      if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build first`)
    localnet = await startLocalnet({ port: 0, slotMs: 50, genesisHash: GENESIS_HASHES.devnet })
    if (process.env.TEST_DATABASE_URL) cluster = process.env.TEST_DATABASE_URL
    else {
      const pg = await startPostgres()
      cluster = pg.url
      stopCluster = () => pg.stop()
    }
    database = await createPostgresDatabase(cluster)
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-serve-'))
    installLog = productionInstall(dir)
  }, 240_000)
  afterAll(async () => {
    await localnet?.close()
    await database?.drop()
    stopCluster?.()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  const token = (symbol: string) => localnet.tokens.find((t) => t.symbol === symbol)?.mint as string
  const envOf = async (overrides: Record<string, string> = {}) => {
    const port: number = await freePort()
    // A password in the URL, to look for in the log (the throwaway cluster trusts loopback and never asks for it).
    const databaseUrl = new URL(database.url)
    databaseUrl.password = `pw-${Buffer.from(crypto.getRandomValues(new Uint8Array(9))).toString('hex')}`
    return productionEnv({
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: databaseUrl.toString(),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SOLANA_RPC_URL: localnet.rpcUrl,
      SOLANA_WS_URL: localnet.wsUrl,
      PRODUCT_MINT: token('PLG'),
      USDT_MINT: token('USDT'),
      WEB_DIST,
      OPERATOR_TOKEN: `op-${Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('hex')}`,
      SETTLEMENT_INTERVAL_MS: '500',
      LOG_LEVEL: 'debug',
      ...overrides,
    }) as Record<string, string>
  }

  it('installs the server alone: no React Native, hermes, Playwright or web build tool, no EBADENGINE', () => {
    for (const name of NOT_INSTALLED) expect(fs.existsSync(path.join(dir, 'node_modules', name)), name).toBe(false)
    expect(installLog).not.toContain('EBADENGINE')
    expect(fs.existsSync(path.join(dir, 'node_modules/@solpledge/contract/src'))).toBe(false)
  })

  it('serves from the compiled build with its version and commit, logs as an operator reads, and runs every operator command', async () => {
    const env = await envOf()
    const server = serve(dir, env)
    let pid = 0
    let sessionToken = ''
    try {
      const ready = await server.ready
      pid = ready.pid
      const { url } = ready
      const get = (p: string) => fetch(url + API_BASE + p)
      const post = async (route: RouteDef, body: object, headers: Record<string, string> = {}) => {
        const response = await fetch(url + API_BASE + route.path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'accept-language': 'en', ...headers },
          body: JSON.stringify(body),
        })
        return { response, body: (await response.json()) as { code: number; msg: string; data: never } }
      }

      // The release it runs, from the build (apps/server/dist/build-info.json, written by npm run build from git).
      const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim()
      const live = (await (await get(HEALTH_PATHS.live)).json()) as { data: { version: string; commit: string } }
      expect(live.data.version).toBe(version)
      expect(live.data.commit).toMatch(new RegExp(`^${head}(-dirty)?$`))
      const readyReport = await get(HEALTH_PATHS.ready)
      expect(readyReport.status).toBe(200)
      expect(await readyReport.json()).toMatchObject({
        data: { status: 'ok', version, database: { ok: true }, chain: { ok: true, cluster: 'devnet' } },
      })
      const page = await fetch(`${url}/pledge`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('<div id="root"')

      // A user signs in (a session token to look for in the log later) and is counted in the next snapshot.
      const wallet = new TestWallet()
      const nonce = await post(api.nonce, { address: wallet.address })
      const message = (nonce.body.data as { message: string }).message
      const login = await post(api.registerThird, {
        type: LOGIN_TYPE,
        address: wallet.address,
        sign: wallet.sign(message),
        invite_code: env.ROOT_ADDRESS as string,
        message,
      })
      expect(login.body.code, login.body.msg).toBe(1)
      const { token: userToken, id: userId } = login.body.data as { token: string; id: string }
      sessionToken = userToken
      const auth = { 'user-token': sessionToken, 'user-address': wallet.address }
      const me = await post(api.userIndex, {}, auth)
      expect(me.body.code).toBe(1)

      // The user is owed something (as a deposit would credit it): the snapshot counts only users owed more than 0.
      const books = await openDatabase({ url: database.url })
      try {
        await creditAvailable(books, userId, 'USDT', 12_500_000n)
      } finally {
        await books.destroy()
      }

      // The operator commands, from the compiled build (no tsx in this install).
      await localnet.faucet(loadConfig(env).hotWalletKey?.address as string, { sol: 2_000_000_000n })
      const settle = await npmRun(
        dir,
        env,
        'settle',
        '--day',
        new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
      )
      expect(settle.status, settle.output).toBe(0)
      const snapshot = await npmRun(dir, env, 'snapshot-liabilities')
      const errors = () =>
        server
          .output()
          .split('\n')
          .filter((line) => /"level":[456]\d/.test(line))
          .join('\n')
      expect(snapshot.status, `${snapshot.output}\n${errors()}`).toBe(0)
      expect(snapshot.output).toMatch(/^snapshot #\d+/)
      // Its memo lands on the server's next pass; then the user's proof verifies against the chain.
      let proof: { response: Response; body: { code: number; msg: string; data: never } } | undefined
      await until(async () => {
        const root = await post(api.liabilitiesRoot, {})
        if (!(root.body.data as { signature: string | null } | null)?.signature) return false
        proof = await post(api.liabilitiesProof, {}, auth)
        return proof.body.code === 1
      }, 'the snapshot published and the proof served')
      const proofFile = path.join(dir, 'proof.json')
      fs.writeFileSync(proofFile, JSON.stringify(toProofFile(proof?.body.data as never, wallet.address)))
      const verified = await npmRun(dir, env, 'verify-proof', proofFile, '--rpc', localnet.rpcUrl)
      expect(verified.status, verified.output).toBe(0)

      const backups = path.join(dir, 'backups')
      const backup = await npmRun(dir, env, 'backup', '--out', backups)
      expect(backup.status, backup.output).toBe(0)
      const restored = await createPostgresDatabase(cluster)
      try {
        const restore = await npmRun(
          dir,
          { ...env, DATABASE_URL: restored.url, DATA_DIR: path.join(dir, 'restored') },
          'restore',
          backups,
        )
        expect(restore.status, restore.output).toBe(0)
        const db = await openDatabase({ url: restored.url })
        try {
          const users = await db.selectFrom('users').select('address').execute()
          expect(users.map((u) => u.address)).toContain(wallet.address)
        } finally {
          await db.destroy()
        }
      } finally {
        await restored.drop()
      }

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

      // One line per request with what an operator needs, its id (a UUIDv7, never the same twice) in X-Request-Id.
      const ids = new Set<string>()
      for (let i = 0; i < 3; i++) {
        const answer = await post(api.userIndex, {}, auth)
        const id = answer.response.headers.get('x-request-id') as string
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        ids.add(id)
      }
      expect(ids.size).toBe(3)
      await until(() => [...ids].every((id) => server.output().includes(id)), 'the request lines')
    } finally {
      // SIGTERM to npm reaches node (the script execs it): it stops cleanly and leaves no process behind.
      server.child.kill('SIGTERM')
      expect(await server.exited, server.output()).toBe(0)
      if (pid) await until(() => !alive(pid), 'node to exit with npm', 10_000)
    }

    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.trim())
    // Every line JSON, the start lines too (NODE_ENV=production).
    expect(
      lines.filter((line) => !line.startsWith('{')),
      'lines that are not JSON',
    ).toEqual([])
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    const requests = entries.filter((e) => e.msg === 'request')
    const me = requests.filter((e) => e.route === API_BASE + api.userIndex.path)
    expect(me).toHaveLength(4)
    for (const entry of me)
      expect(entry).toMatchObject({
        level: 30,
        method: 'POST',
        status: 200,
        ip: '127.0.0.1',
        user: expect.any(String),
        reqId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        ms: expect.any(Number),
      })
    expect(new Set(requests.map((e) => e.reqId)).size).toBe(requests.length)
    // The health checks at debug, the rest at info; every migration applied named once.
    expect(requests.filter((e) => String(e.route).includes('/health/')).every((e) => e.level === 20)).toBe(true)
    const migrations = entries.filter((e) => e.msg === 'migration applied').map((e) => e.migration)
    expect(migrations.length).toBeGreaterThan(10)
    expect(new Set(migrations).size).toBe(migrations.length)
    expect(entries.find((e) => String(e.msg).startsWith('solpledge ready'))).toMatchObject({ version })

    // No secret in the whole log: the operator token, the hot wallet's key (as given and as base58 bytes), the
    // session token, the database password.
    const log = server.output()
    const key = JSON.parse(env.HOT_WALLET_KEY as string) as number[]
    for (const secret of [
      env.OPERATOR_TOKEN,
      env.HOT_WALLET_KEY,
      key.slice(0, 8).join(','),
      Buffer.from(key).toString('hex'),
      Buffer.from(key).toString('base64'),
      getBase58Decoder().decode(Uint8Array.from(key)),
      sessionToken,
      new URL(env.DATABASE_URL as string).password,
    ] as string[]) {
      expect(secret.length).toBeGreaterThan(8)
      expect(log.includes(secret), `a secret in the log: ${secret.slice(0, 6)}…`).toBe(false)
    }
  })

  it('refuses to start against another cluster than SOLANA_CLUSTER (genesis hash), in a JSON line naming it', async () => {
    const env = await envOf({ SOLANA_CLUSTER: 'mainnet-beta', PUBLIC_URL: 'https://app.example.com' })
    const server = serve(dir, env)
    await expect(server.ready).rejects.toThrow(/exited \(1\)/)
    const fatal = JSON.parse(server.output().trim().split('\n').at(-1) as string) as {
      level: number
      problems: string[]
    }
    expect(fatal.level).toBe(60)
    expect(fatal.problems).toEqual([
      `SOLANA_RPC_URL ${new URL(localnet.rpcUrl).host} serves devnet (genesis hash ${GENESIS_HASHES.devnet}), but ` +
        `SOLANA_CLUSTER is mainnet-beta (genesis hash ${GENESIS_HASHES['mainnet-beta']})`,
    ])
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
