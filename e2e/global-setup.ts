import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { bin, ensureWebBuild, freePort, root, startService, stopChild } from '../scripts/lib.mjs'

/** The operator secret of the e2e server: journeys run the daily settlement through the operator route with it. */
const OPERATOR_TOKEN = 'e2e-operator-token'

/** Starts the local chain and the server (serving the built web app) on free ports with a throwaway DATA_DIR. */
export default async function globalSetup() {
  ensureWebBuild()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-e2e-'))
  const [rpcPort, wsPort, port] = [await freePort(), await freePort(), await freePort()]
  const localnet = await startService(
    'localnet',
    bin('tsx'),
    ['packages/localnet/src/cli.ts', '--port', String(rpcPort), '--ws-port', String(wsPort), '--slot-ms', '200'],
    { ready: /localnet ready rpc=(\S+) ws=(\S+)/, quiet: true },
  )
  const server = await startService('server', bin('tsx'), ['apps/server/src/server.ts'], {
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST: path.join(root, 'apps/web/dist'),
      SOLANA_CLUSTER: 'localnet',
      SOLANA_RPC_URL: localnet.match[1],
      SOLANA_WS_URL: localnet.match[2],
      LOGIN_RATE_LIMIT: '100000',
      LOG_LEVEL: 'warn',
      OPERATOR_TOKEN,
      // Ranking snapshots every 2 s, so journeys see the stakes they made (the default is hourly).
      RANK_INTERVAL_MS: '2000',
    },
    ready: /solpledge ready url=(\S+) root_invite_code=(\S+)/,
    quiet: true,
  })
  process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`
  process.env.E2E_ROOT_ADDRESS = server.match[2]
  process.env.E2E_RPC_URL = localnet.match[1]
  process.env.E2E_OPERATOR_TOKEN = OPERATOR_TOKEN
  return async () => {
    await stopChild(server.child)
    await stopChild(localnet.child)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
