// Child process of bench/http/run.ts: the real app (authenticated /api/user/user/index: the session check, one database
// read unless the session cache answers; and a money call, a finance deposit with an Idempotency-Key) with the session
// cache as in production (SESSION_CACHE_MS default 2000) and without it (0 = read the session on every call), and a bare
// Fastify route answering a constant envelope, on three loopback ports of the same process. BENCH_LOG=1 logs each
// request as production does.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { API_BASE } from '@solpledge/contract'
import Fastify from 'fastify'
import { buildApp } from '../../apps/server/src/app.ts'
import { loadConfig } from '../../apps/server/src/config.ts'
import { seedBusinessConfig } from '../../apps/server/src/modules/config/service.ts'
import { loadPlatform } from '../../apps/server/src/platform.ts'
import {
  addOffChainAssets,
  creditAvailable,
  freshDatabase,
  login,
  productionEnv,
  seedRoot,
  TestWallet,
} from '../../apps/server/test/helpers.ts'

const { db, drop } = await freshDatabase()
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'solpledge-bench-'))
// The configuration an operator gives a production server (deploy/env.example: a real cluster, its mints, the
// treasury's address, the hot wallet's key, the root user, an https PUBLIC_URL), through the same validation as
// `npm run serve`; the RPC is never contacted (nothing here touches the chain). LOGIN_RATE_LIMIT is the bench's own: it
// signs its users in from one address.
const config = loadConfig(productionEnv({ DATA_DIR: dataDir, LOGIN_RATE_LIMIT: '1000' }))
// BENCH_LOG=1: the request log as in production (one JSON line per request at info), written to /dev/null.
const logger = process.env.BENCH_LOG === '1' ? { level: 'info', file: '/dev/null' } : false
const platform = await loadPlatform(config)
// The app twice on the same database: with the session cache as configured (default SESSION_CACHE_MS, 2000) and
// without it (0), each on its own port.
const app = await buildApp({ db, config, platform, logger })
const uncached = await buildApp({ db, config: { ...config, sessionCacheMs: 0 }, platform, logger })
await addOffChainAssets(db)
await seedBusinessConfig(db)
const root = await seedRoot(db)
/** The money call's users: one per connection, each with plenty of USDT, so that they do not queue on one balance. */
const users = []
for (let i = 0; i < Number(process.env.BENCH_USERS ?? 50); i++) {
  const wallet = new TestWallet()
  const { id, token } = (await login(app, wallet, root.address)).data as { id: string; token: string }
  await creditAvailable(db, id, 'USDT', 10n ** 15n)
  users.push({ token, address: wallet.address })
}
const [first] = users as [{ token: string; address: string }]

const bare = Fastify({ logger: false })
bare.post(`${API_BASE}/bare`, async () => ({ code: 1, msg: 'Success', data: { address: first.address } }))

const appUrls = {
  [config.sessionCacheMs]: await app.listen({ host: '127.0.0.1', port: 0 }),
  0: await uncached.listen({ host: '127.0.0.1', port: 0 }),
}
const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 })
const ready = { ready: true, appUrls, bareUrl, token: first.token, address: first.address, users }
console.log(JSON.stringify(ready))
// bench/http/run.ts asks for the CPU time around each measurement.
process.on('message', () => process.send?.(process.cpuUsage()))
process.on('SIGTERM', async () => {
  await app.close()
  await uncached.close()
  await bare.close()
  await drop()
  fs.rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
})
