import path from 'node:path'
import { pino } from 'pino'
import { buildApp } from './app.ts'
import { buildInfo } from './build-info.ts'
import { checkGenesis } from './chain/cluster.ts'
import { type Config, ConfigError, loadConfig } from './config.ts'
import { type Database, migrate, openDatabase } from './db/index.ts'
import { startJobs } from './jobs/runner.ts'
import { faults } from './lib/idempotency.ts'
import { isEmptyAllowList } from './modules/admin/session.ts'
import { memoSigner } from './modules/liabilities/index.ts'
import { FixedSettingsChanged } from './modules/system/fixed-settings.ts'
import { readiness } from './modules/system/health.ts'
import { serveMetrics } from './modules/system/metrics.ts'
import { seed } from './modules/system/seed.ts'
import { loadPlatform, type Platform } from './platform.ts'

/** How often a server that is not ready yet checks again before it prints its ready line. */
const READY_RETRY_MS = 2000

// One logger for the whole process, from its first line: the start, the migrations, the outages and the requests
// (docs/operations.md "Logs"). JSON lines on stdout; the level is LOG_LEVEL's once the configuration is read.
const log = pino()

/**
 * A start-up line: with NODE_ENV=production a JSON line like every other (fields for the machine, the text in msg);
 * otherwise (npm start) the plain text, for a person at a terminal.
 */
const say = (config: Pick<Config, 'production'>, fields: object, text: string) =>
  config.production ? log.info(fields, text) : console.log(text)

/** Starts the API (and the built web app) from the environment; see README.md for the variables. */
async function main() {
  const config = loadConfig()
  log.level = config.logLevel
  const { version, commit } = buildInfo()
  say(config, { version, commit, node: process.versions.node }, `solpledge ${version} (${commit}) starting`)
  // CRASH_AT=committed is for the crash tests only: die abruptly right after a money call with an Idempotency-Key
  // committed, before its answer is sent, as a power cut would (apps/server/test/idempotency-crash.test.ts).
  if (config.crashAt === 'committed')
    faults.afterCommit = ({ key }) => {
      if (key !== undefined) process.kill(process.pid, 'SIGKILL')
    }
  // A broken database connection is logged and replaced, never fatal.
  const db = await openDatabase({
    url: config.databaseUrl,
    listenUrl: config.databaseListenUrl,
    preparedStatements: config.databasePreparedStatements,
    dir: path.join(config.dataDir, 'pglite'),
    onConnectionError: (error) => log.warn({ err: error.message }, 'database connection lost'),
    log,
  })
  await migrate(db, undefined, log)
  const platform = await loadPlatform(config, log)
  const genesis = await checkGenesis(config, platform.chain)
  if (genesis.problems.length > 0) throw new ConfigError(genesis.problems)
  for (const host of genesis.unanswered)
    log.warn({ host }, 'RPC endpoint did not answer at start: its cluster (genesis hash) is not checked')
  const seeded = await seed(db, config, platform)
  const app = await buildApp({ db, config, platform, loggerInstance: log })
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
  if (config.metricsPort) metrics = await serveMetrics(app.metrics, config.metricsHost, config.metricsPort, log)
  await untilReady(db, config, platform)
  const url = config.publicUrls[0]
  const root = seeded.rootAddress
  say(config, { url, root_invite_code: root, version, commit }, `solpledge ready url=${url} root_invite_code=${root}`)
  say(config, {}, `  open ${url}/?code=${root} to join as the root user's first member`)
  const cluster = config.localChain ? 'local chain' : `cluster ${config.cluster}`
  const treasury = platform.treasury.address
  say(config, { cluster: config.cluster, treasury }, `  ${cluster}: deposits go to the treasury ${treasury}`)
  const hot = platform.hotWallet.address
  say(
    config,
    { hot_wallet: hot },
    `  withdrawals are paid by the hot wallet ${hot}: keep SOL (fees) and tokens on it, refilled from the treasury ` +
      '(docs/operations.md)',
  )
  if (memoSigner(platform) !== platform.treasury.key)
    say(
      config,
      { memo_signer: hot },
      `  proof of liabilities: no TREASURY_KEY, so the hot wallet ${hot} signs the roots' memos instead of the ` +
        'treasury (docs/operations.md)',
    )
  if (metrics) say(config, { metrics: metrics.url }, `  metrics for Prometheus at ${metrics.url}`)
  if (platform.localChain && (await isEmptyAllowList(db)))
    say(config, {}, `  open ${url}/admin: the first wallet to sign in there becomes the operator console's admin`)
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
      const failing = (['database', 'chain'] as const).filter((part) => !report[part].ok)
      const why = failing.map((part) => `${part} (${report[part].error})`).join(', ')
      say(
        config,
        { failing },
        `solpledge not ready yet: ${why} unavailable; serving, /api/health/ready answers 503 until it is`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, READY_RETRY_MS))
  }
}

main().catch((error) => {
  // A refused configuration is the operator's to fix: its message says what, a stack trace would only hide it.
  const refused = error instanceof ConfigError || error instanceof FixedSettingsChanged
  if (process.env.NODE_ENV === 'production')
    log.fatal(refused ? { problems: (error as ConfigError).problems } : { err: error }, (error as Error).message)
  else console.error(refused ? error.message : error)
  process.exit(1)
})
