// Prometheus metrics (docs/operations.md "Metrics and alerts"). Requests are counted in this process; everything else
// is read from the database and the chain when Prometheus scrapes, so every instance reports the same jobs, queues,
// hot wallet and solvency. Served on their own listener (METRICS_HOST:METRICS_PORT), never on the public port.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { API_BASE, formatAmount } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { buildInfo } from '../../build-info.ts'
import { jobStatus } from '../admin/index.ts'
import { listAssets } from '../assets/index.ts'
import { solvency } from '../liabilities/index.ts'
import { PAYOUT_LAMPORTS } from '../withdrawals/index.ts'
import { hotWalletState, readiness, timed } from './health.ts'

/** Withdrawals not yet confirmed, failed or rejected: waiting for review, to be sent, or sent and not confirmed. */
const OPEN_WITHDRAWALS = ['review', 'pending', 'sent'] as const
/** Withdrawals the hot wallet has still to pay (review may still be rejected, but is counted: it will be due). */
const QUEUED_WITHDRAWALS: string[] = ['review', 'pending']

/** The route pattern a request matched, never its raw URL: the web app's files and pages count as one. */
function routeLabel(url: string | undefined): string {
  if (url === undefined) return 'unmatched'
  return url.startsWith(API_BASE) ? url : 'web'
}

/** Whole units of an amount in base units, for a gauge (Prometheus values are floats; the books stay bigint). */
const units = (value: bigint | string, decimals: number) => Number(formatAmount(value, decimals))
const epochSeconds = (at: Date | string | null | undefined) => (at ? new Date(at).getTime() / 1000 : 0)

export type Metrics = ReturnType<typeof createMetrics>

/** The app's registry: the request hook is added here; `render` reads the rest at each scrape. */
export function createMetrics(app: FastifyInstance) {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] })

  // Which release and Node each instance runs (1 per instance): `count by (version)` shows a rolling upgrade's progress.
  new Gauge({
    name: 'solpledge_build_info',
    help: 'The release this instance runs: its version, git commit and Node.js version (always 1)',
    labelNames: ['version', 'commit', 'node'],
    registers: [registry],
  }).set({ ...buildInfo(), node: process.versions.node }, 1)

  const requests = new Counter({
    name: 'solpledge_http_requests_total',
    help: 'HTTP requests answered by this instance, by method, route pattern and HTTP status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'solpledge_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  // The label sets of each method, route pattern and status, built once (a callback hook: no promise per request).
  const labelSets = new Map<string, { route: { method: string; route: string }; byStatus: Map<number, object> }>()
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeLabel(request.routeOptions.url)
    const key = `${request.method} ${route}`
    let labels = labelSets.get(key)
    if (!labels) {
      labels = { route: { method: request.method, route }, byStatus: new Map() }
      labelSets.set(key, labels)
    }
    let withStatus = labels.byStatus.get(reply.statusCode)
    if (!withStatus) {
      withStatus = { ...labels.route, status: String(reply.statusCode) }
      labels.byStatus.set(reply.statusCode, withStatus)
    }
    requests.inc(withStatus)
    duration.observe(labels.route, reply.elapsedTime / 1000)
    done()
  })

  const g = {
    ready: gauge('solpledge_ready', 'Whether a dependency answers (1) or not (0): database, chain', ['check']),
    slot: gauge('solpledge_chain_slot', 'The current slot the RPC reports'),
    jobLastSuccess: gauge(
      'solpledge_job_last_success_timestamp_seconds',
      'When a periodic job last succeeded on any instance (Unix seconds; 0: never)',
      ['job'],
    ),
    jobLastRun: gauge('solpledge_job_last_run_timestamp_seconds', 'When a periodic job last ran on any instance', [
      'job',
    ]),
    jobFailing: gauge('solpledge_job_failing', 'Whether the last pass of a job failed (1) or not (0)', ['job']),
    jobStale: gauge('solpledge_job_stale', 'Whether a job has not succeeded for three of its intervals (1)', ['job']),
    intents: gauge('solpledge_payment_intents', 'Payment intents waiting for their payment', ['state']),
    intentsAge: gauge('solpledge_payment_intents_oldest_age_seconds', 'Age of the oldest pending payment intent', [
      'state',
    ]),
    withdrawals: gauge('solpledge_withdrawals', 'Open withdrawals by state (review, pending, sent) and asset', [
      'state',
      'asset',
    ]),
    withdrawalsAge: gauge(
      'solpledge_withdrawals_oldest_age_seconds',
      'Age of the oldest open withdrawal by state and asset (0: none)',
      ['state', 'asset'],
    ),
    queued: gauge(
      'solpledge_withdrawals_queued_amount',
      'What the hot wallet has still to pay for withdrawals in review or pending, in whole units (SOL: the most ' +
        'their fees and token accounts can cost)',
      ['asset'],
    ),
    hotBalance: gauge('solpledge_hot_wallet_balance', 'What the hot wallet holds on chain, in whole units', ['asset']),
    hotProblem: gauge(
      'solpledge_hot_wallet_cannot_pay',
      "Whether the node refused this instance's last payout from the hot wallet (1), by cause: sol, token_account, " +
        'token_balance, other',
      ['kind'],
    ),
    hotRefused: gauge('solpledge_hot_wallet_refused_payouts', 'Payouts the node refused since this instance started'),
    liabilities: gauge('solpledge_solvency_liabilities', 'What users are owed, in whole units', ['asset']),
    holdings: gauge('solpledge_solvency_holdings', 'What the treasury and the hot wallet hold, in whole units', [
      'asset',
    ]),
    solvencyRatio: gauge(
      'solpledge_solvency_ratio',
      'Holdings / liabilities (below 1: users are owed more than the platform holds; absent when nothing is owed)',
      ['asset'],
    ),
    lastSettledDay: gauge(
      'solpledge_settlement_last_settled_day_timestamp_seconds',
      'The last settled day (its 00:00 UTC, Unix seconds; 0: none)',
    ),
    daysBehind: gauge('solpledge_settlement_days_behind', 'Days due for settlement and not yet settled'),
    held: gauge(
      'solpledge_settlement_held',
      'Whether the circuit breaker holds a settlement day (1) until an admin releases it, by asset and rule',
      ['asset', 'rule'],
    ),
    settlementDuration: gauge(
      'solpledge_settlement_last_duration_seconds',
      'How long the last settled day took to settle',
    ),
  }

  /** Sets every gauge from the database and the chain now; a part that cannot be read is left out, not an error. */
  async function refresh() {
    for (const metric of Object.values(g)) metric.reset()
    const { db, platform, config } = app
    const health = await readiness(db, config, platform)
    g.ready.set({ check: 'database' }, health.database.ok ? 1 : 0)
    g.ready.set({ check: 'chain' }, health.chain.ok ? 1 : 0)
    if (health.chain.slot !== null) g.slot.set(Number(health.chain.slot))
    const hot = hotWalletState(platform)
    g.hotRefused.set(hot.refused_total)
    for (const kind of ['sol', 'token_account', 'token_balance', 'other'])
      g.hotProblem.set({ kind }, hot.problem?.kind === kind ? 1 : 0)
    if (!health.database.ok) return

    const now = new Date()
    const [status, open, lastRun, assets] = await Promise.all([
      jobStatus(db, hot, now),
      db
        .selectFrom('withdrawals')
        .select([
          'asset',
          'status',
          sql<string>`count(*)`.as('n'),
          sql<Date>`min(created_at)`.as('oldest'),
          sql<string>`sum(amount - fee)`.as('net'),
        ])
        .where('status', 'in', [...OPEN_WITHDRAWALS])
        .groupBy(['asset', 'status'])
        .execute(),
      db
        .selectFrom('settlement_runs')
        .select(['started_at', 'finished_at'])
        .where('status', '=', 'done')
        .orderBy('day', 'desc')
        .limit(1)
        .executeTakeFirst(),
      listAssets(db),
    ])
    const stale = new Map(health.jobs.map((job) => [job.name, job.stale]))
    for (const job of status.jobs) {
      g.jobLastSuccess.set({ job: job.name }, epochSeconds(job.last_ok_at))
      g.jobLastRun.set({ job: job.name }, epochSeconds(job.last_run_at))
      g.jobFailing.set({ job: job.name }, job.last_error === null ? 0 : 1)
      g.jobStale.set({ job: job.name }, stale.get(job.name) ? 1 : 0)
    }
    const age = (oldest: Date | string | null) =>
      oldest ? Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000) : 0
    g.intents.set({ state: 'pending' }, status.watcher.pending_intents)
    g.intentsAge.set({ state: 'pending' }, age(status.watcher.oldest_pending_at))
    const { settlement } = status
    g.lastSettledDay.set(settlement.last_done_day ? epochSeconds(`${settlement.last_done_day}T00:00:00Z`) : 0)
    g.daysBehind.set(settlement.days_behind)
    // 0 when nothing is held, so the series exists and an alert can tell "no hold" from "no data".
    if (settlement.held === null) g.held.set({ asset: '', rule: '' }, 0)
    for (const reason of settlement.held?.reasons ?? []) g.held.set({ asset: reason.coin, rule: reason.rule }, 1)
    if (lastRun?.finished_at)
      g.settlementDuration.set((lastRun.finished_at.getTime() - new Date(lastRun.started_at).getTime()) / 1000)

    let queuedPayouts = 0
    for (const asset of assets) {
      let queued = 0n
      for (const state of OPEN_WITHDRAWALS) {
        const row = open.find((r) => r.asset === asset.code && r.status === state)
        g.withdrawals.set({ state, asset: asset.code }, Number(row?.n ?? 0))
        g.withdrawalsAge.set({ state, asset: asset.code }, age(row?.oldest ?? null))
        if (row && QUEUED_WITHDRAWALS.includes(state)) {
          queuedPayouts += Number(row.n)
          queued += BigInt(row.net)
        }
      }
      g.queued.set({ asset: asset.code }, units(queued, asset.decimals))
    }
    g.queued.set({ asset: 'SOL' }, units(PAYOUT_LAMPORTS * BigInt(queuedPayouts), 9))
    if (!health.chain.ok) return

    // The chain's side: the solvency report (treasury and hot wallet per token) and the hot wallet's SOL.
    const [report, lamports] = await Promise.all([
      timed(() => solvency(db, platform)),
      timed((abortSignal) =>
        platform.chain.rpc
          .getBalance(platform.hotWallet.address as never, { commitment: platform.chain.commitment })
          .send({ abortSignal }),
      ),
    ])
    if (lamports.ok && lamports.value) g.hotBalance.set({ asset: 'SOL' }, units(lamports.value.value, 9))
    for (const row of report.ok && report.value ? report.value.list : []) {
      const [liabilities, holdings] = [BigInt(row.liabilities), BigInt(row.holdings)]
      g.hotBalance.set({ asset: row.coin }, units(row.hot_wallet, row.decimals))
      g.liabilities.set({ asset: row.coin }, units(liabilities, row.decimals))
      g.holdings.set({ asset: row.coin }, units(holdings, row.decimals))
      // The ratio to six places, computed on bigints.
      if (liabilities > 0n)
        g.solvencyRatio.set({ asset: row.coin }, Number((holdings * 1_000_000n) / liabilities) / 1e6)
    }
  }

  return {
    registry,
    /** The exposition text of a scrape: gauges read now, then every metric. */
    async render(): Promise<string> {
      try {
        await refresh()
      } catch (error) {
        // A scrape always answers: what could not be read is missing, and solpledge_ready says why.
        app.log.error({ err: error }, 'metrics could not be read')
      }
      return registry.metrics()
    },
  }
}

/**
 * The metrics listener: GET /metrics on its own host and port (METRICS_HOST:METRICS_PORT), apart from the public API.
 * Port 0 picks a free one (tests). Each scrape is logged at debug. Resolves once listening, with its URL and a close
 * function.
 */
export async function serveMetrics(
  metrics: Metrics,
  host: string,
  port: number,
  log?: { debug: (fields: object, message: string) => void },
) {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics\n')
      return
    }
    log?.debug({ url: request.url }, 'metrics scrape')
    metrics.render().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(503, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const { port: bound } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
