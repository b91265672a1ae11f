import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { migrate, openDatabase } from '../apps/server/src/db/index.ts'
import { buildServerBundle } from '../apps/server/test/fixtures/server-bundle.ts'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { bin, ensureWebBuild, freePort, startService, stopChild } from '../scripts/lib.mjs'
import { CHROMIUM } from './chromium.ts'
import { Wallet } from './fixtures.ts'
import { startServer } from './server.ts'

/** The operator secret of the e2e server: journeys run the daily settlement through the operator route with it. */
const OPERATOR_TOKEN = 'e2e-operator-token'

/**
 * A migrated PGlite data directory, made once per run: every server of the run starts on a copy of it (server.ts)
 * instead of creating and migrating a database of its own, as the API tests' crash tests do (apps/server/test).
 */
async function migratedTemplate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-e2e-template-'))
  const db = await openDatabase({ dir: path.join(dir, 'pglite') })
  await migrate(db)
  await db.destroy()
  return dir
}

/**
 * Starts the local chain and the server (serving the built web app) on free ports with a throwaway DATA_DIR. The
 * servers of the run (this one, the journeys' own ones) start from one bundle of the server
 * (apps/server/test/fixtures/server-bundle.ts) on a copy of one migrated database: a start through tsx on an empty
 * directory costs several seconds of CPU more each.
 */
export default async function globalSetup() {
  if (!fs.existsSync(CHROMIUM.executablePath))
    throw new Error(`${CHROMIUM.executablePath} is missing: apt-get install -y chromium (npm test does)`)
  ensureWebBuild()
  const [rpcPort, wsPort] = [await freePort(), await freePort()]
  const [localnet, bundle, template] = await Promise.all([
    startService(
      'localnet',
      bin('tsx'),
      ['packages/localnet/src/cli.ts', '--port', String(rpcPort), '--ws-port', String(wsPort), '--slot-ms', '200'],
      { ready: /localnet ready rpc=(\S+) ws=(\S+)/, quiet: true },
    ),
    buildServerBundle(),
    migratedTemplate(),
  ])
  process.env.E2E_PGLITE_TEMPLATE = path.join(template, 'pglite')
  const [rpcUrl, wsUrl] = [localnet.match[1] as string, localnet.match[2] as string]
  // An admin of the console, for journeys that only look (those that change the configuration start a server of
  // their own: see admin.spec.ts).
  const admin = new Wallet()
  const server = await startServer(rpcUrl, wsUrl, {
    OPERATOR_TOKEN,
    ADMIN_ADDRESSES: `${admin.address}:admin`,
    // Ranking snapshots every 2 s, so journeys see the stakes they made (the default is hourly).
    RANK_INTERVAL_MS: '2000',
  })
  process.env.E2E_BASE_URL = server.url
  process.env.E2E_ROOT_ADDRESS = server.rootAddress
  process.env.E2E_RPC_URL = rpcUrl
  process.env.E2E_WS_URL = wsUrl
  process.env.E2E_OPERATOR_TOKEN = OPERATOR_TOKEN
  process.env.E2E_ADMIN_SEED = Buffer.from(admin.seed).toString('hex')
  return async () => {
    await server.stop()
    await stopChild(localnet.child)
    bundle.remove()
    fs.rmSync(template, { recursive: true, force: true })
  }
}
