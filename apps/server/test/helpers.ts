import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ed25519 } from '@noble/curves/ed25519'
import {
  API_BASE,
  api,
  type BodyOf,
  type Envelope,
  LOGIN_TYPE,
  type LoginData,
  parseCsv,
  type RouteDef,
} from '@solpledge/contract'
import { type App, buildApp } from '../src/app.ts'
import { type Config, loadConfig } from '../src/config.ts'
import type { Database } from '../src/db/index.ts'
import { addressOf } from '../src/lib/keys.ts'
import { ledgerWrites, routeCalls } from '../src/lib/money-probe.ts'
import { seedBusinessConfig } from '../src/modules/config/service.ts'
import { systemAccount, transfer, userAccount } from '../src/modules/ledger/service.ts'
import { loadPlatform, type Platform } from '../src/platform.ts'
import { freshDatabase } from './fixtures/database.ts'

// Databases are made in fixtures/database.ts (shared with the benches).
export { createPostgresDatabase, freshDatabase, postgresAdminUrl, tableNames } from './fixtures/database.ts'

export const dbKind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'

/**
 * The size of a test's generated input on this run's database: `postgres` on PostgreSQL, `pglite` on PGlite. The two
 * passes run the same SQL; PGlite runs it one statement at a time in WebAssembly, at about three times PostgreSQL's CPU
 * a statement, so the largest property and concurrency tests check the same properties on smaller inputs there
 * (docs/design.md#tests).
 */
export const sized = (postgres: number, pglite: number) => (dbKind === 'postgres' ? postgres : pglite)

/**
 * A complete production environment (a real cluster, random mints and keys; the RPC is never contacted unless a test
 * does): tests change or leave out variables to see what the server says.
 */
export function productionEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    DATA_DIR: '/tmp/solpledge-test-unused',
    SOLANA_CLUSTER: 'devnet',
    SOLANA_RPC_URL: 'https://rpc.example.com/?api-key=secret',
    SOLANA_PUBLIC_RPC_URL: 'https://public-rpc.example.com',
    PRODUCT_MINT: new TestWallet().address,
    USDT_MINT: new TestWallet().address,
    TREASURY_ADDRESS: new TestWallet().address,
    HOT_WALLET_KEY: JSON.stringify([...new TestWallet().secret]),
    ROOT_ADDRESS: new TestWallet().address,
    PUBLIC_URL: 'https://app.example.com',
    ...overrides,
  }
}

/** Overrides for createTestApp that make it a real cluster's server (not the local chain): see productionEnv. */
export function realCluster(cluster = 'devnet', env: Record<string, string> = {}): Partial<Config> {
  const config = loadConfig(productionEnv({ SOLANA_CLUSTER: cluster, ...env }))
  const keys = ['localChain', 'cluster', 'rpcUrl', 'wsUrl', 'publicRpcUrl', 'publicWsUrl', 'treasuryAddress'] as const
  const more = ['rpcFallbackUrls', 'hotWalletKey', 'productMint', 'usdtMint', 'rootAddress', 'seedDemo'] as const
  return Object.fromEntries([...keys, ...more].map((key) => [key, config[key]]))
}

/** The test configuration: the local chain's (SOLPLEDGE_LOCAL_CHAIN=1, as npm start runs it) unless overridden. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      SOLPLEDGE_LOCAL_CHAIN: '1',
      DATA_DIR: '/tmp/solpledge-test-unused',
      PUBLIC_URL: 'http://localhost:3000',
    }),
    loginRateLimit: 10_000,
    publicRateLimit: 10_000,
    // Tests change sessions in the database and expect the next call to see it (session-cache.test.ts tests the cache).
    sessionCacheMs: 0,
    // Likewise for trades and the valuation price (valuation.test.ts tests its cache).
    valuationCacheMs: 0,
    ...overrides,
  }
}

/**
 * The routes seen writing the ledger without the contract's `idempotent` flag (the probe of lib/money-probe.ts, on every
 * test app): closing a test app fails while one is listed, so any API test that moves money through an unflagged route
 * fails its file. The list of money routes is thus what the routes do, not a list kept by hand.
 */
export const unflaggedMoneyRoutes = new Set<string>()
/**
 * The one route that moves money idempotent by its body, not by a key: the operator's settlement run settles each day
 * once, in order, so running it again through the same day pays nothing more (settlement.test.ts).
 */
const IDEMPOTENT_BY_BODY: string[] = [api.settlementRun.path]
let probing = false
/**
 * Turns the probe on for this process, at the first test app: bound, it runs every route in a store of its own. Not
 * when this module is merely imported — bench/http's server imports these helpers and must measure the server as
 * production runs it, without the probe.
 */
function probeMoneyRoutes() {
  if (probing) return
  probing = true
  const routeInCall = new AsyncLocalStorage<RouteDef>()
  routeCalls.bindStore(routeInCall)
  ledgerWrites.subscribe(() => {
    const def = routeInCall.getStore()
    if (def && !def.idempotent && !IDEMPOTENT_BY_BODY.includes(def.path)) unflaggedMoneyRoutes.add(def.path)
  })
}

export interface TestContext {
  app: App
  db: Database
  platform: Platform
  /** The database's URL on PostgreSQL (another instance opens it too); undefined on PGlite. */
  url?: string | undefined
  close: () => Promise<void>
}

/**
 * The whole app on a fresh database, with its own platform keypairs in a temporary DATA_DIR. Pass the local chain's
 * URLs (and cluster 'localnet') in `overrides` for tests that touch the chain; others never contact it. `now` is the
 * clock of user sessions (buildApp's).
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  options: { now?: () => number } = {},
): Promise<TestContext> {
  probeMoneyRoutes()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-api-'))
  const { db, drop, url } = await freshDatabase()
  const config = testConfig({ dataDir, ...overrides })
  const platform = await loadPlatform(config)
  const app = await buildApp({ db, config, platform, ...options })
  await app.ready()
  return {
    app,
    db,
    platform,
    url,
    close: async () => {
      await app.close()
      await drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
      if (unflaggedMoneyRoutes.size > 0)
        throw new Error(
          `routes that moved money without being flagged idempotent in the contract: ${[...unflaggedMoneyRoutes].join(', ')}`,
        )
    },
  }
}

/** An ed25519 wallet for tests: address and message signing, as Phantom's signMessage does. */
export class TestWallet {
  readonly secret = Uint8Array.from(randomBytes(32))
  readonly address = addressOf(ed25519.getPublicKey(this.secret))
  sign(message: string): string {
    return Buffer.from(ed25519.sign(new TextEncoder().encode(message), this.secret)).toString('hex')
  }
}

export interface CallOptions {
  token?: string
  address?: string
  lang?: string
  headers?: Record<string, string>
}

/** POSTs a contract route through app.inject, with the caller's headers. */
const post = (app: App, route: RouteDef, body: unknown, options: CallOptions) =>
  app.inject({
    method: 'POST',
    url: API_BASE + route.path,
    payload: body as Record<string, unknown>,
    headers: {
      'accept-language': options.lang ?? 'en',
      ...(options.token ? { 'user-token': options.token } : {}),
      ...(options.address ? { 'user-address': options.address } : {}),
      ...options.headers,
    },
  })

/** POSTs a contract route through app.inject and returns the envelope. */
export async function call<R extends RouteDef>(
  app: App,
  route: R,
  body: BodyOf<R> | Record<string, unknown>,
  options: CallOptions = {},
): Promise<Envelope & { status: number }> {
  const response = await post(app, route, body, options)
  return { ...(response.json() as Envelope), status: response.statusCode }
}

/**
 * POSTs a download route (`csv` in its contract) through app.inject: the file's lines (the header line first), or the
 * envelope of a refusal.
 */
export async function download<R extends RouteDef>(
  app: App,
  route: R,
  body: BodyOf<R> | Record<string, unknown>,
  options: CallOptions = {},
) {
  const response = await post(app, route, body, options)
  const csv = String(response.headers['content-type']).startsWith('text/csv')
  return {
    status: response.statusCode,
    headers: response.headers,
    lines: csv ? parseCsv(response.body) : null,
    refusal: csv ? null : (response.json() as Envelope),
  }
}

/** The whole login flow of the web app: nonce, sign, registerThird. Returns the envelope. */
export async function login(app: App, wallet: TestWallet, inviteCode = '') {
  const nonce = await call(app, api.nonce, { address: wallet.address })
  const message = (nonce.data as { message: string }).message
  return call(app, api.registerThird, {
    type: LOGIN_TYPE,
    address: wallet.address,
    sign: wallet.sign(message),
    invite_code: inviteCode,
    message,
  })
}

/** A new wallet logged in under `inviteCode`: its user id, address, wallet and the session to call with. */
export async function member(app: App, inviteCode: string) {
  const wallet = new TestWallet()
  const res = await login(app, wallet, inviteCode)
  const { id, token } = (res.data ?? {}) as Partial<LoginData>
  if (!id || !token) throw new Error(`login failed: ${res.msg}`)
  return { id, address: wallet.address, wallet, auth: { token, address: wallet.address } }
}

/** The id of the user registered with `address`. */
export async function userIdOf(db: Database, address: string): Promise<string> {
  return (await db.selectFrom('users').select('id').where('address', '=', address).executeTakeFirstOrThrow()).id
}

export type Member = Awaited<ReturnType<typeof member>>

/** A new wallet logged in under `parentAddress` holding `funds` available (paid in from the system 'chain' account). */
export async function fundedMember(
  t: Pick<TestContext, 'app' | 'db'>,
  parentAddress: string,
  funds: Partial<Record<string, bigint>> = {},
): Promise<Member> {
  const user = await member(t.app, parentAddress)
  for (const [asset, amount] of Object.entries(funds))
    if (amount && amount > 0n) await creditAvailable(t.db, user.id, asset, amount)
  return user
}

/**
 * The app on a fresh database seeded as the first start seeds it, off chain: PLG and USDT without mints, the default
 * business configuration and a root user (`root`: its id, address and wallet) to invite the others.
 */
export async function createSeededApp(overrides: Partial<Config> = {}) {
  const t = await createTestApp(overrides)
  await addOffChainAssets(t.db)
  await seedBusinessConfig(t.db)
  const wallet = await seedRoot(t.db)
  return { ...t, root: { id: await userIdOf(t.db, wallet.address), address: wallet.address, wallet } }
}

export type SeededApp = Awaited<ReturnType<typeof createSeededApp>>

/** Registers a root user directly (as the first-start seed does) and returns its wallet. */
export async function seedRoot(db: Database): Promise<TestWallet> {
  const root = new TestWallet()
  await db.insertInto('users').values({ address: root.address, parent_id: null }).execute()
  return root
}

/** A user with no referrer and no wallet of its own (tests of the ledger and the live channel below the routes): its id. */
export async function newUser(db: Database): Promise<string> {
  const { id } = await db
    .insertInto('users')
    .values({ address: randomUUID(), parent_id: null })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

/** The balance of the ledger account `id`, base units. */
export async function accountBalance(db: Database, id: string): Promise<bigint> {
  const { balance } = await db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return BigInt(balance)
}

/** PLG and USDT without mints (tests that never touch the chain), as the seed makes them on the local chain. */
export async function addOffChainAssets(db: Database) {
  await db
    .insertInto('assets')
    .values([
      { code: 'PLG', symbol: 'PLG', decimals: 9, mint: null, sort: 0 },
      { code: 'USDT', symbol: 'USDT', decimals: 6, mint: null, sort: 1 },
    ])
    .execute()
}

/** Puts `amount` of `asset` on the user's available balance from the system 'chain' account, as a deposit does. */
export async function creditAvailable(db: Database, userId: string, asset: string, amount: bigint) {
  await db.transaction().execute(async (trx) =>
    transfer(trx, {
      debit: await systemAccount(trx, asset, 'chain'),
      credit: await userAccount(trx, userId, asset, 'available'),
      asset,
      amount,
      type: 'deposit',
      key: randomUUID(),
    }),
  )
}
