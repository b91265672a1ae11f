import path from 'node:path'
import { buildApp } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { migrate, openDatabase } from './db/index.ts'
import { startJobs } from './jobs/runner.ts'
import { faults } from './lib/idempotency.ts'
import { isEmptyAllowList } from './modules/admin/session.ts'
import { memoSigner } from './modules/liabilities/index.ts'
import { FixedSettingsChanged } from './modules/system/fixed-settings.ts'
import { serveMetrics } from './modules/system/metrics.ts'
import { seed } from './modules/system/seed.ts'
import { loadPlatform } from './platform.ts'

/** Starts the API (and the built web app) from the environment; see README.md for the variables. */
async function main() {
  const config = loadConfig()
  // CRASH_AT=committed is for the crash tests only: die abruptly right after a money call with an Idempotency-Key
  // committed, before its answer is sent, as a power cut would (apps/server/test/idempotency-crash.test.ts).
  if (config.crashAt === 'committed')
    faults.afterCommit = ({ key }) => {
      if (key !== undefined) process.kill(process.pid, 'SIGKILL')
    }
  // A broken database connection is logged (with the app's logger once there is one) and replaced, never fatal.
  let onConnectionError = (error: Error) => console.error(`database connection lost: ${error.message}`)
  const db = await openDatabase({
    url: config.databaseUrl,
    dir: path.join(config.dataDir, 'pglite'),
    onConnectionError: (error) => onConnectionError(error),
  })
  await migrate(db)
  const platform = await loadPlatform(config)
  const seeded = await seed(db, config, platform)
  const app = await buildApp({ db, config, platform, logger: { level: config.logLevel } })
  onConnectionError = (error) => app.log.warn({ err: error.message }, 'database connection lost')
  const jobs = startJobs({ db, config, platform, log: app.log })

  let metrics: Awaited<ReturnType<typeof serveMetrics>> | null = null
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    jobs.stop()
    await metrics?.close()
    await app.close()
    await db.destroy()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await app.listen({ host: config.host, port: config.port })
  // Prometheus scrapes each instance on its own listener, never through the public port (docs/operations.md).
  if (config.metricsPort) metrics = await serveMetrics(app.metrics, config.metricsHost, config.metricsPort)
  const url = config.publicUrls[0]
  console.log(`solpledge ready url=${url} root_invite_code=${seeded.rootAddress}`)
  console.log(`  open ${url}/?code=${seeded.rootAddress} to join as the root user's first member`)
  console.log(
    `  ${config.localChain ? 'local chain' : `cluster ${config.cluster}`}: deposits go to the treasury ${platform.treasury.address}`,
  )
  console.log(
    `  withdrawals are paid by the hot wallet ${platform.hotWallet.address}: keep SOL (fees) and tokens on it, ` +
      'refilled from the treasury (docs/operations.md)',
  )
  if (memoSigner(platform) !== platform.treasury.key)
    console.log(
      `  proof of liabilities: no TREASURY_KEY, so the hot wallet ${platform.hotWallet.address} signs the roots' memos ` +
        'instead of the treasury (docs/operations.md)',
    )
  if (metrics) console.log(`  metrics for Prometheus at ${metrics.url}`)
  if (platform.localChain && (await isEmptyAllowList(db)))
    console.log(`  open ${url}/admin: the first wallet to sign in there becomes the operator console's admin`)
}

main().catch((error) => {
  // A refused configuration is the operator's to fix: its message says what, a stack trace would only hide it.
  console.error(error instanceof ConfigError || error instanceof FixedSettingsChanged ? error.message : error)
  process.exit(1)
})
