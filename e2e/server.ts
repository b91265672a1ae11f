import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
// @ts-expect-error plain ESM helpers shared with the npm scripts
import { freePort, root, startService, stopChild } from '../scripts/lib.mjs'

export interface StartedServer {
  url: string
  /** The root user's address: the invite code of the first users. */
  rootAddress: string
  stop: () => Promise<void>
}

/**
 * Starts the server (serving the built web app) on a free port with a throwaway DATA_DIR, against the local chain at
 * `rpcUrl`/`wsUrl`, with `env` added to its environment (a PORT there is used instead of a free one).
 */
export async function startServer(rpcUrl: string, wsUrl: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-e2e-'))
  const port = env.PORT ? Number(env.PORT) : await freePort()
  // One process, tsx as Node's loader: tsx's command relays a signal to a child of its own and kills that child when
  // it has not acknowledged within 30 ms, which a loaded machine misses; the server then never shuts down cleanly, and
  // one restarted on the same DATA_DIR (install.spec.ts's deploys) waits on its embedded database's recovery.
  const server = await startService('server', process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST: path.join(root, 'apps/web/dist'),
      // The chain e2e/global-setup.ts launched itself, as npm start does.
      SOLPLEDGE_LOCAL_CHAIN: '1',
      SOLANA_CLUSTER: 'localnet',
      SOLANA_RPC_URL: rpcUrl,
      SOLANA_WS_URL: wsUrl,
      LOGIN_RATE_LIMIT: '100000',
      LOG_LEVEL: 'warn',
      ...env,
    },
    ready: /solpledge ready url=(\S+) root_invite_code=(\S+)/,
    quiet: true,
  })
  return {
    url: `http://127.0.0.1:${port}`,
    rootAddress: server.match[2] as string,
    stop: async () => {
      await stopChild(server.child)
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  } satisfies StartedServer
}
