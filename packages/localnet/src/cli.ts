import { parseArgs } from 'node:util'
import { startLocalnet } from './index.ts'

const USAGE = `Usage: tsx packages/localnet/src/cli.ts [options]

  --host <host>         interface to listen on (default 127.0.0.1)
  --port <port>         JSON-RPC port, WebSocket upgrades too (default 8899; 0 = random)
  --ws-port <port>      extra WebSocket port (default port+1)
  --slot-ms <ms>        slot duration (default 400)
  --state-dir <dir>     persist the chain state in this directory
  --genesis-hash <hash> the genesis hash getGenesisHash answers (default the local chain's own): a server that checks
                        its cluster then takes this chain for that cluster (benchmarks of the production start)
  -h, --help            show this help`

function intOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer`)
  return n
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'ws-port': { type: 'string' },
      'slot-ms': { type: 'string' },
      'state-dir': { type: 'string' },
      'genesis-hash': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const localnet = await startLocalnet({
    host: values.host,
    port: intOption(values.port, 'port'),
    wsPort: intOption(values['ws-port'], 'ws-port'),
    slotMs: intOption(values['slot-ms'], 'slot-ms'),
    stateDir: values['state-dir'],
    genesisHash: values['genesis-hash'],
  })
  console.log(`localnet ready rpc=${localnet.rpcUrl} ws=${localnet.wsUrl}`)

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    localnet.close().then(
      () => process.exit(0),
      (error) => {
        console.error(`localnet: failed to stop cleanly after ${signal}:`, error)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

main().catch((error) => {
  console.error(`localnet: ${(error as Error).message}`)
  process.exit(1)
})
