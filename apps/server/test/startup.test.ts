// Safe by default (docs/operations.md#configuration-and-keys): readiness that checks the chain, settings fixed at the
// first start, demo content only on the local chain, the browsers' RPC kept apart from the server's.
import net from 'node:net'
import { API_BASE, api, Code, HEALTH_PATHS, type HealthReport } from '@solpledge/contract'
import { type Localnet, startLocalnet } from '@solpledge/localnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.ts'
import { type Config, ConfigError } from '../src/config.ts'
import { migrate } from '../src/db/index.ts'
import { JOBS, recordJobRun } from '../src/lib/jobs.ts'
import { PRODUCTION_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { getBusinessConfig } from '../src/modules/config/service.ts'
import { FixedSettingsChanged } from '../src/modules/system/fixed-settings.ts'
import { seed } from '../src/modules/system/seed.ts'
import { loadPlatform } from '../src/platform.ts'
import {
  addOffChainAssets,
  call,
  createTestApp,
  dbKind,
  freshDatabase,
  realCluster,
  type TestContext,
  TestWallet,
  testConfig,
} from './helpers.ts'

/** An RPC URL on a loopback port nobody listens on: the chain is down. */
async function deadRpcUrl() {
  const server = net.createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return { rpcUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}` }
}

const get = async (t: TestContext, path: string) => {
  const res = await t.app.inject({ method: 'GET', url: API_BASE + path, headers: { 'accept-language': 'en' } })
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: HealthReport }) }
}

describe(`health and the client configuration (${dbKind})`, () => {
  let localnet: Localnet
  /** An app whose RPC is down; the other cases build an app of their own configuration on its database. */
  let t: TestContext
  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0, slotMs: 50 })
    t = await createTestApp(await deadRpcUrl())
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await localnet?.close()
  })
  const appOn = async (overrides: Partial<Config>) => {
    const config = { ...t.app.config, ...overrides }
    const app = await buildApp({ db: t.db, config, platform: await loadPlatform(config) })
    return { ...t, app, platform: app.platform }
  }

  it('ready answers 503 naming the chain while the RPC is down; live still answers', async () => {
    expect(await get(t, HEALTH_PATHS.live)).toMatchObject({ status: 200, code: Code.OK, data: { status: 'ok' } })
    for (const path of [HEALTH_PATHS.ready, HEALTH_PATHS.health]) {
      const res = await get(t, path)
      expect(res, path).toMatchObject({
        status: 503,
        code: Code.FAIL,
        msg: 'The service is not ready: chain unavailable',
        data: { status: 'unavailable', database: { ok: true }, chain: { ok: false, slot: null, cluster: 'localnet' } },
      })
      expect(res.data.chain.error).toBeTruthy()
      expect(res.data.chain.endpoints).toEqual([
        {
          host: new URL(t.app.config.rpcUrl).host,
          ok: false,
          ms: expect.any(Number),
          slot: null,
          failures: expect.any(Number),
          error: expect.any(String),
        },
      ])
    }
  })

  it('ready reports each RPC endpoint; with the primary down it is ready on the fallback', async () => {
    const dead = t.app.config.rpcUrl
    const failover = await appOn({ rpcUrl: dead, rpcFallbackUrls: [localnet.rpcUrl], wsUrl: localnet.wsUrl })
    try {
      const res = await get(failover, HEALTH_PATHS.ready)
      expect(res).toMatchObject({ status: 200, data: { status: 'ok', chain: { ok: true } } })
      expect(res.data.chain.endpoints).toEqual([
        {
          host: new URL(dead).host,
          ok: false,
          ms: expect.any(Number),
          slot: null,
          failures: 1,
          error: expect.any(String),
        },
        {
          host: new URL(localnet.rpcUrl).host,
          ok: true,
          ms: expect.any(Number),
          slot: expect.any(String),
          failures: 0,
        },
      ])
    } finally {
      await failover.app.close()
    }
  })

  it('ready answers 200 with the slot, each job (stale when it has not succeeded for three intervals) and the hot wallet', async () => {
    const live = await appOn({ rpcUrl: localnet.rpcUrl, wsUrl: localnet.wsUrl, senderIntervalMs: 2000 })
    try {
      await recordJobRun(t.db, JOBS.watcher)
      await recordJobRun(t.db, JOBS.sender)
      const longAgo = new Date(Date.now() - 60_000)
      await t.db.updateTable('job_heartbeats').set({ last_ok_at: longAgo }).where('name', '=', JOBS.sender).execute()
      const res = await get(live, HEALTH_PATHS.ready)
      expect(res).toMatchObject({ status: 200, code: Code.OK, data: { status: 'ok', database: { ok: true } } })
      expect(res.data.chain).toMatchObject({ ok: true, cluster: 'localnet' })
      expect(BigInt(res.data.chain.slot as string)).toBeGreaterThan(0n)
      expect(res.data.jobs).toEqual([
        { name: JOBS.watcher, last_ok_at: expect.any(String), last_error: null, stale: false },
        { name: JOBS.sender, last_ok_at: longAgo.toISOString(), last_error: null, stale: true },
      ])
      expect(res.data.hot_wallet).toEqual({ address: live.platform.hotWallet.address, refused_total: 0, problem: null })
    } finally {
      await live.app.close()
    }
  })

  it("a real cluster's server gives browsers the public RPC endpoints only, no demo wallet; the first-admin rule is off", async () => {
    const real = await appOn(realCluster('mainnet-beta'))
    try {
      const res = await real.app.inject({ method: 'GET', url: `${API_BASE}/config` })
      expect(res.json().data).toEqual({
        cluster: 'mainnet-beta',
        testnet: false,
        rpcUrl: 'https://public-rpc.example.com',
        wsUrl: 'wss://public-rpc.example.com',
        demoWallet: false,
        productSymbol: 'PLG',
      })
      expect(res.body).not.toContain('secret')
      expect(real.platform.localChain).toBe(false)
      expect(real.platform.treasury.address).toBe(real.app.config.treasuryAddress)
      expect(real.platform.hotWallet.address).toBe(real.app.config.hotWalletKey?.address)
      const nonce = await call(real.app, api.adminNonce, { address: new TestWallet().address })
      expect(nonce).toMatchObject({ code: Code.FAIL, msg: 'This wallet is not on the operator list' })
    } finally {
      await real.app.close()
    }
  })
})

describe(`first-start settings and demo content (${dbKind})`, () => {
  let localnet: Localnet
  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0, slotMs: 50 })
  }, 60_000)
  afterAll(() => localnet?.close())

  /** Runs the start-up seed of `config` on `db` (a fresh DATA_DIR is not needed off the local chain). */
  const start = async (db: Awaited<ReturnType<typeof freshDatabase>>['db'], config: Config) =>
    seed(db, config, await loadPlatform({ ...config, operatorToken: 'test' }))
  const counts = async (db: Awaited<ReturnType<typeof freshDatabase>>['db']) => {
    const n = async (table: 'notices' | 'banners') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    return { notices: await n('notices'), banners: await n('banners') }
  }

  it('a wrong mint, or a changed cluster, mint, treasury or root, is refused naming each setting, with nothing written; no demo content on a production configuration', async () => {
    const { db, drop } = await freshDatabase()
    try {
      // The first start checks the mints on the cluster: PRODUCT_MINT is no mint there.
      const wrongMint = testConfig({
        ...realCluster('devnet', { USDT_MINT: localnet.tokens.find((t) => t.symbol === 'USDT')?.mint as string }),
        rpcUrl: localnet.rpcUrl,
        wsUrl: localnet.wsUrl,
      })
      const refused = await start(db, wrongMint).catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(ConfigError)
      expect((refused as ConfigError).problems).toEqual([
        expect.stringMatching(new RegExp(`^PRODUCT_MINT ${wrongMint.productMint}: the cluster at SOLANA_RPC_URL`)),
      ])
      expect(await db.selectFrom('assets').selectAll().execute()).toEqual([])
      expect(await db.selectFrom('fixed_settings').selectAll().execute()).toEqual([])

      const first = testConfig(realCluster('devnet'))
      expect(first.seedDemo).toBe(false)
      await addOffChainAssets(db)
      expect(await start(db, first)).toEqual({ rootAddress: first.rootAddress })
      expect(await start(db, first)).toEqual({ rootAddress: first.rootAddress })
      expect(await counts(db)).toEqual({ notices: 0, banners: 0 })
      // No demo business values either: nothing for sale, nothing paid, until the operator sets them.
      expect(await getBusinessConfig(db)).toEqual({
        ...PRODUCTION_BUSINESS_CONFIG,
        rankIntervalSeconds: Math.round(first.rankIntervalMs / 1000),
      })
      expect(PRODUCTION_BUSINESS_CONFIG).toMatchObject({ nodeLevels: [], finance: [], referralRewards: [] })

      const other = realCluster('devnet')
      const changed = testConfig({ ...first, productMint: other.productMint, treasuryAddress: other.treasuryAddress })
      const error = await start(db, changed).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(FixedSettingsChanged)
      expect((error as FixedSettingsChanged).changed.map((c) => c.name)).toEqual(['PRODUCT_MINT', 'TREASURY_ADDRESS'])
      expect((error as Error).message).toContain(`PRODUCT_MINT is now ${other.productMint}`)
      expect((error as Error).message).toContain(`this database was set up with ${first.productMint}`)

      for (const [name, override] of [
        ['ROOT_ADDRESS', { rootAddress: other.rootAddress }],
        ['SOLANA_CLUSTER', { cluster: 'mainnet-beta' }],
        ['USDT_MINT', { usdtMint: other.usdtMint }],
      ] as const)
        await expect(start(db, testConfig({ ...first, ...override }))).rejects.toThrow(new RegExp(`${name} is now`))
      const roots = await db.selectFrom('users').select('address').where('parent_id', 'is', null).execute()
      expect(roots).toEqual([{ address: first.rootAddress }])

      // SEED_DEMO=1 asks for the demo notices and banners.
      await start(db, { ...first, seedDemo: true })
      expect((await counts(db)).notices).toBeGreaterThan(0)
    } finally {
      await drop()
    }
  })

  it('an installation from before the check keeps the mints, product and root it has, and its demo notices stay seeded', async () => {
    const { db, drop } = await freshDatabase('0014-settlement-perf')
    try {
      const [plg, usdt, root] = [new TestWallet(), new TestWallet(), new TestWallet()].map((w) => w.address)
      await db
        .insertInto('assets')
        .values([
          { code: 'PLG', symbol: 'PLG', decimals: 9, mint: plg, sort: 0 },
          { code: 'USDT', symbol: 'USDT', decimals: 6, mint: usdt, sort: 1 },
        ])
        .execute()
      await db
        .insertInto('users')
        .values({ address: root as string, parent_id: null })
        .execute()
      await db.insertInto('notices').values({ slug: 'demo-welcome' }).execute()
      await migrate(db)
      const rows = await db.selectFrom('fixed_settings').select(['name', 'value']).execute()
      expect(rows.sort((a, b) => (a.name < b.name ? -1 : 1))).toEqual([
        { name: 'PRODUCT_MINT', value: plg },
        { name: 'PRODUCT_SYMBOL', value: 'PLG' },
        { name: 'ROOT_ADDRESS', value: root },
        { name: 'USDT_MINT', value: usdt },
        { name: 'demo_content', value: 'done' },
      ])
    } finally {
      await drop()
    }
  })
})
