import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { buildServerBundle } from './fixtures/server-bundle.ts'
// @ts-expect-error
import { bin, freePort, startService, stopChild } from '../../../scripts/lib.mjs'
const bundle = await buildServerBundle()
const dir = process.env.TEST_SERVER_BUNDLE as string
const [rpcPort, wsPort] = [await freePort(), await freePort()]
const localnet = await startService('localnet', bin('tsx'), ['packages/localnet/src/cli.ts', '--port', String(rpcPort), '--ws-port', String(wsPort)], { ready: /localnet ready rpc=(\S+) ws=(\S+)/, quiet: true })
for (let i = 0; i < 2; i++) {
  const dataDir = fs.mkdtempSync('/tmp/zzstart-')
  const t = Date.now()
  const server = await startService('server', process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/startprof', `${dir}/start-server.mjs`], {
    env: { PORT: String(await freePort()), DATA_DIR: dataDir, WEB_DIST: 'apps/web/dist', SOLPLEDGE_LOCAL_CHAIN: '1', SOLANA_CLUSTER: 'localnet', SOLANA_RPC_URL: localnet.match[1], SOLANA_WS_URL: localnet.match[2], LOG_LEVEL: 'warn' },
    ready: /solpledge ready url=(\S+)/, quiet: true,
  })
  console.log('ready ms', Date.now() - t)
  await stopChild(server.child)
}
await stopChild(localnet.child)
bundle.remove()
