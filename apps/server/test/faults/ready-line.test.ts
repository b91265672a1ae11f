// "solpledge ready" means ready (docs/operations.md, "Health"): a server whose chain RPC does not answer serves, says
// it is not ready yet instead of its ready line, and answers /api/health/ready with 503; once the RPC answers it prints
// its ready line. A real cluster's server (the local chain behind SOLANA_RPC_URL, as the production test runs it) on
// its second start: the first start checked the mints on the cluster, later ones need the chain only to be ready.
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
import { GENESIS_HASHES } from '../../src/chain/cluster.ts'
import { cuttableRpc, Instance, until } from '../fixtures/instances.ts'
import { createPostgresDatabase, productionEnv } from '../helpers.ts'

describe('the ready line', () => {
  let localnet: Localnet
  let rpc: Awaited<ReturnType<typeof cuttableRpc>>
  let database: { url: string; drop: () => Promise<void> }
  let server: Instance
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-ready-'))
  beforeAll(async () => {
    // devnet's genesis hash: the server checks at start that SOLANA_RPC_URL serves SOLANA_CLUSTER (devnet here).
    localnet = await startLocalnet({ port: 0, slotMs: 50, genesisHash: GENESIS_HASHES.devnet })
    rpc = await cuttableRpc(localnet.rpcUrl)
    if (process.env.TEST_DATABASE_URL) database = await createPostgresDatabase(process.env.TEST_DATABASE_URL)
    else {
      const pg = await startPostgres()
      database = { url: pg.url, drop: async () => pg.stop() }
    }
    const port: number = await freePort()
    const mint = (symbol: string) => localnet.tokens.find((t) => t.symbol === symbol)?.mint as string
    const env = productionEnv({
      DATA_DIR: dir,
      DATABASE_URL: database.url,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SOLANA_RPC_URL: rpc.url,
      SOLANA_WS_URL: localnet.wsUrl,
      PRODUCT_MINT: mint('PLG'),
      USDT_MINT: mint('USDT'),
      LOG_LEVEL: 'warn',
    }) as Record<string, string>
    server = new Instance(port, env)
    // The first start: the RPC answers (the mints are checked on the cluster).
    await server.start()
    await server.stop()
  }, 180_000)
  afterAll(async () => {
    await server?.stop()
    await rpc?.close()
    await localnet?.close()
    await database?.drop()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('is printed only once the readiness check passes', async () => {
    rpc.cut()
    await server.start(false)
    const ready = () => fetch(`http://127.0.0.1:${server.port}${API_BASE}${HEALTH_PATHS.ready}`)
    expect(server.lastStart).toMatch(/^solpledge not ready yet: chain \(.+\) unavailable/m)
    expect(server.lastStart).not.toContain('solpledge ready')
    expect((await ready()).status).toBe(503)

    rpc.restore()
    await server.printed((line) => line.startsWith('solpledge ready url='), 'its ready line')
    // The route reuses a check for up to a second (modules/system/routes.ts).
    await until('ready answers 200', async () => (await ready()).status === 200, 5000)
  }, 120_000)
})
