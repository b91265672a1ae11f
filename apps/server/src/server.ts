import path from 'node:path'
import { buildApp } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { migrate, openDatabase } from './db/index.ts'
import { purgeIdempotencyKeys } from './lib/idempotency.ts'
import { JOBS, recordJobRun } from './modules/admin/ops.ts'
import { isEmptyAllowList } from './modules/admin/session.ts'
import { purgeExpiredNonces } from './modules/auth/service.ts'
import { getBusinessConfig } from './modules/config/service.ts'
import { watchIntents } from './modules/intents/service.ts'
import { refreshRankings } from './modules/rank/service.ts'
import { crashHook, settleDue } from './modules/settlement/service.ts'
import { FixedSettingsChanged } from './modules/system/fixed-settings.ts'
import { jobIntervals } from './modules/system/jobs.ts'
import { serveMetrics } from './modules/system/metrics.ts'
import { seed } from './modules/system/seed.ts'
import { processWithdrawals, type SenderStep } from './modules/withdrawals/service.ts'
import { loadPlatform } from './platform.ts'

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
  // CRASH_AT is for the crash tests only: die abruptly right after that sender step, as a power cut would.
  let hotWalletWarnedAt = 0
  const onStep = (step: SenderStep) => {
    if (step === config.crashAt) process.kill(process.pid, 'SIGKILL')
  }
  // SETTLEMENT_CRASH_AFTER_BATCHES is for the crash tests only, as CRASH_AT (docs/settlement.md).
  const settlementCrash = crashHook()
  const interval = jobIntervals(config)
  const timers = [
    // Also forgets Idempotency-Keys past their retention (lib/idempotency.ts): one indexed delete each.
    every(JOBS.nonces, async () => {
      await purgeExpiredNonces(db)
      await purgeIdempotencyKeys(db)
    }),
    every(JOBS.watcher, async () => {
      const pass = await watchIntents(db, platform)
      if (pass.fulfilled || pass.expired) app.log.info(pass, 'payment intents watched')
    }),
    every(JOBS.sender, async () => {
      const { errors, problem, hotWallet, ...pass } = await processWithdrawals(db, platform, { onStep })
      for (const { id, error } of errors) app.log.error({ err: error, withdrawal: id }, 'withdrawal sender failed')
      // The hot wallet cannot pay: an error line when the cause appears or changes, a warning once a minute after.
      if (problem && (hotWallet === 'new' || Date.now() - hotWalletWarnedAt >= 60_000)) {
        hotWalletWarnedAt = Date.now()
        const line = { hotWallet: platform.hotWallet.address, cause: problem.kind, asset: problem.asset, ...pass }
        app.log[hotWallet === 'new' ? 'error' : 'warn'](line, `hot wallet cannot pay: ${problem.detail}`)
      }
      if (hotWallet === 'recovered') app.log.info({ hotWallet: platform.hotWallet.address }, 'hot wallet pays again')
      // Resends of a payout waiting to confirm happen every pass: only outcomes are worth an info line.
      if (pass.confirmed || pass.failed || pass.renewed) app.log.info(pass, 'withdrawal sender pass')
      else if (pass.sent || pass.refused) app.log.debug(pass, 'withdrawal sender pass')
    }),
    // Settles every due day not yet settled, in order (safe with several instances: docs/settlement.md).
    every(JOBS.settlement, async () => {
      const days = await settleDue(db, { product: config.productSymbol, onBatch: settlementCrash })
      for (const day of days) app.log.info(day, 'settlement day done')
    }),
    // Monthly ranking snapshots: looks every minute (sooner when RANK_INTERVAL_MS is shorter) and recomputes when the
    // newest is the configuration's rankIntervalSeconds old (0: never).
    every(JOBS.rank, async () => {
      const { rankIntervalSeconds } = await getBusinessConfig(db)
      if (rankIntervalSeconds > 0) await refreshRankings(db, { intervalMs: rankIntervalSeconds * 1000 })
    }),
  ]
  /**
   * Runs a job periodically, never two passes at once in this process; errors are logged, not fatal. Each pass is
   * recorded in job_heartbeats for the operator console's job status.
   */
  function every(name: string, job: () => Promise<unknown>) {
    const ms = interval[name] ?? 0
    if (ms <= 0) return undefined
    let running = false
    const timer = setInterval(async () => {
      if (running) return
      running = true
      let failure: unknown
      try {
        await job()
      } catch (error) {
        failure = error ?? new Error('job failed')
        app.log.error({ err: error }, 'job failed')
      } finally {
        running = false
      }
      await recordJobRun(db, name, failure).catch((error) => app.log.error({ err: error }, 'job heartbeat failed'))
    }, ms)
    timer.unref()
    return timer
  }

  let metrics: Awaited<ReturnType<typeof serveMetrics>> | null = null
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    for (const timer of timers) clearInterval(timer)
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
  if (metrics) console.log(`  metrics for Prometheus at ${metrics.url}`)
  if (platform.localChain && (await isEmptyAllowList(db)))
    console.log(`  open ${url}/admin: the first wallet to sign in there becomes the operator console's admin`)
}

main().catch((error) => {
  // A refused configuration is the operator's to fix: its message says what, a stack trace would only hide it.
  console.error(error instanceof ConfigError || error instanceof FixedSettingsChanged ? error.message : error)
  process.exit(1)
})
