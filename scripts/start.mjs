// `npm start`: the whole product on one machine. Installs what is missing, builds the web app, starts the local chain
// and the server on PGlite under DATA_DIR (unless DATABASE_URL is set), then prints the URL and the root invite code.
// Ctrl-C stops everything; a second start keeps all data.
//
// The local chain is started only when SOLANA_RPC_URL(S) is not set (and SOLANA_CLUSTER, if set, is localnet), and only
// then is the server
// told so (SOLPLEDGE_LOCAL_CHAIN=1): its demo wallet, faucet, generated keys and first-admin rule exist for that chain
// alone. Otherwise the server runs as in production and refuses to start without its settings
// (README.md, "Configuration for production").
import path from 'node:path'
import { bin, ensureDependencies, ensureWebBuild, log, root, startService, stopChild } from './lib.mjs'
import { runOnSupportedNode } from './node.mjs'

// On a Node older than 22.12 this runs again under Node 22 from the npm registry (scripts/node.mjs), before npm ci.
await runOnSupportedNode()
ensureDependencies()
ensureWebBuild()

const dataDir = path.resolve(process.env.DATA_DIR || path.join(root, 'data'))
const env = { DATA_DIR: dataDir, WEB_DIST: path.join(root, 'apps/web/dist') }
const children = []

async function main() {
  const cluster = process.env.SOLANA_CLUSTER || 'localnet'
  const rpc = process.env.SOLANA_RPC_URL || process.env.SOLANA_RPC_URLS
  if (!rpc && cluster === 'localnet') {
    const port = process.env.LOCALNET_PORT || '8899'
    log(`starting the local chain on port ${port}`)
    const { child, match } = await startService(
      'localnet',
      bin('tsx'),
      ['packages/localnet/src/cli.ts', '--port', port, '--state-dir', path.join(dataDir, 'localnet')],
      { ready: /localnet ready rpc=(\S+) ws=(\S+)/, quiet: true },
    )
    children.push(child)
    Object.assign(env, {
      SOLANA_RPC_URL: match[1],
      SOLANA_WS_URL: match[2],
      SOLANA_CLUSTER: 'localnet',
      SOLPLEDGE_LOCAL_CHAIN: '1',
    })
  } else {
    // Hosts only: a provider's API key may sit in the path or the query.
    const hosts = (rpc ?? '').split(',').map((url) => URL.parse(url.trim())?.host ?? url.trim())
    log(`using the cluster at ${rpc ? hosts.join(', ') : '(SOLANA_RPC_URL not set)'}: no local chain`)
  }
  log(`starting the server (${process.env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${dataDir}`})`)
  const { child, match } = await startService('server', bin('tsx'), ['apps/server/src/server.ts'], {
    env,
    ready: /solpledge ready url=(\S+) root_invite_code=(\S+)/,
  })
  children.push(child)
  log(`ready: open ${match[1]}  —  root invite code ${match[2]}`)
  log('press Ctrl-C to stop')
  for (const c of children) c.on('exit', (code) => code && shutdown(`a service exited with ${code}`, 1))
}

let stopping = false
async function shutdown(reason, exitCode = 0) {
  if (stopping) return
  stopping = true
  log(`stopping (${reason})`)
  for (const child of [...children].reverse()) await stopChild(child)
  process.exit(exitCode)
}
process.on('SIGINT', () => shutdown('SIGINT'))
process.on('SIGTERM', () => shutdown('SIGTERM'))

main().catch(async (error) => {
  console.error(error.message ?? error)
  await shutdown('start-up failed', 1)
})
