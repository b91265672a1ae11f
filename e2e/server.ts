import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type Instance, startCluster } from '../apps/server/test/fixtures/instances.ts'
import { processArgs } from '../apps/server/test/fixtures/server-bundle.ts'
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
 * `rpcUrl`/`wsUrl`, with `env` added to its environment (a PORT there is used instead of a free one; a DATA_DIR there
 * is used instead of a new one, and kept).
 */
export async function startServer(rpcUrl: string, wsUrl: string, env: Record<string, string> = {}) {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-e2e-'))
  const port = env.PORT ? Number(env.PORT) : await freePort()
  // Its database: a copy of the run's migrated one (global-setup.ts), unless the directory has one already (a restart).
  const database = path.join(dataDir, 'pglite')
  const template = process.env.E2E_PGLITE_TEMPLATE
  if (template && !fs.existsSync(database)) fs.cpSync(template, database, { recursive: true })
  // One process, started from the run's bundle of the server (global-setup.ts; through tsx as Node's loader without
  // one): tsx's command relays a signal to a child of its own and kills that child when it has not acknowledged within
  // 30 ms, which a loaded machine misses; the server then never shuts down cleanly, and one restarted on the same
  // DATA_DIR (install.spec.ts's deploys) waits on its embedded database's recovery.
  const server = await startService('server', process.execPath, processArgs('server'), {
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
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  } satisfies StartedServer
}

export interface StartedInstances extends StartedServer {
  /** The server processes behind the proxy (`url`), and the port of each one's metrics listener. */
  instances: { instance: Instance; metricsPort: number }[]
  /** The cluster's own local chain. */
  rpcUrl: string
}

/**
 * Two instances of the server on one PostgreSQL behind a round-robin proxy, as docs/operations.md "Several instances"
 * runs them (the faults tier's cluster: apps/server/test/fixtures/instances.ts), serving the built web app, on a local
 * chain of their own; `env` is added to each one's environment.
 */
export async function startInstances(env: Record<string, string>): Promise<StartedInstances> {
  const metricsPorts: number[] = []
  const cluster = await startCluster(2, {
    env: async (index) => {
      metricsPorts[index] = await freePort()
      return { WEB_DIST: path.join(root, 'apps/web/dist'), METRICS_PORT: String(metricsPorts[index]), ...env }
    },
  })
  return {
    url: cluster.url,
    rootAddress: cluster.rootAddress,
    rpcUrl: cluster.localnet.rpcUrl,
    instances: cluster.instances.map((instance, i) => ({ instance, metricsPort: metricsPorts[i] as number })),
    stop: () => cluster.close(),
  }
}
