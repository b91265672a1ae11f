import path from 'node:path'
import { buildApp } from './app.ts'
import { type Config, ConfigError, loadConfig } from './config.ts'
import { type Database, migrate, openDatabase } from './db/index.ts'
import { startJobs } from './jobs/runner.ts'
import { isEmptyAllowList } from './modules/admin/session.ts'
import { memoSigner } from './modules/liabilities/index.ts'
import { FixedSettingsChanged } from './modules/system/fixed-settings.ts'
import { readiness } from './modules/system/health.ts'
import { serveMetrics } from './modules/system/metrics.ts'
import { seed } from './modules/system/seed.ts'
import { loadPlatform, type Platform } from './platform.ts'

/** How often a server that is not ready yet checks again before it prints its ready line. */
const READY_RETRY_MS = 2000

/** Starts the API (and the built web app) from the environment; see README.md for the variables. */
async function main() {
  const config = loadConfig()
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
  await untilReady(db, config, platform)
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

/**
 * Waits until the readiness check passes (the database and the chain's RPC answer), so that "solpledge ready" is never
 * printed by an instance whose /api/health/ready answers 503. Meanwhile it serves (the proxy's health check sees the
 * 503) and says once what it waits for.
 */
async function untilReady(db: Database, config: Config, platform: Platform) {
  for (let said = false; ; said = true) {
    const report = await readiness(db, config, platform)
    if (report.status === 'ok') return
    if (!said) {
      const failing = (['database', 'chain'] as const)
        .filter((part) => !report[part].ok)
        .map((part) => `${part} (${report[part].error})`)
      console.log(
        `solpledge not ready yet: ${failing.join(', ')} unavailable; serving, /api/health/ready answers 503 until it is`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, READY_RETRY_MS))
  }
}

main().catch((error) => {
  // A refused configuration is the operator's to fix: its message says what, a stack trace would only hide it.
  console.error(error instanceof ConfigError || error instanceof FixedSettingsChanged ? error.message : error)
  process.exit(1)
})
