import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { API_BASE, api, Code } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.ts'
import { JOBS, recordJobRun } from '../src/lib/jobs.ts'
import { serveMetrics } from '../src/modules/system/metrics.ts'
import { loadPlatform } from '../src/platform.ts'
import { call, dbKind } from './helpers.ts'
import { type ChainApp, createChainApp, createIntent, fundedUser, pay, sendAll } from './money.ts'

const USDT = 1_000_000n
const ALERTS = path.resolve(import.meta.dirname, '../../../docs/operations/alerts.yml')
const DASHBOARD = path.resolve(import.meta.dirname, '../../../deploy/grafana-dashboard.json')

/** One sample of the exposition text: name, labels, value. */
interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = []
  const types = new Map<string, string>()
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line)
    if (type) types.set(type[1] as string, type[2] as string)
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!sample) continue
    const labels = Object.fromEntries([...(sample[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
    samples.push({ name: sample[1] as string, labels, value: Number(sample[3]) })
  }
  return { samples, types }
}

describe(`metrics (${dbKind})`, () => {
  let ctx: ChainApp
  let listener: Awaited<ReturnType<typeof serveMetrics>>
  beforeAll(async () => {
    ctx = await createChainApp()
    listener = await serveMetrics(ctx.app.metrics, '127.0.0.1', 0)
  }, 120_000)
  afterAll(async () => {
    await listener.close()
    await ctx.close()
  })

  async function scrape() {
    const response = await fetch(listener.url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    return parse(await response.text())
  }
  /** The value of the one sample of `name` with these labels (undefined when absent). */
  const value = (scraped: { samples: Sample[] }, name: string, labels: Record<string, string> = {}) =>
    scraped.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value

  it('is not served on the public port, and only GET /metrics on its own listener', async () => {
    for (const url of ['/metrics', `${API_BASE}/metrics`]) {
      const response = await ctx.app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(404)
      expect(response.body).not.toContain('solpledge_')
    }
    expect((await fetch(listener.url.replace('/metrics', '/'))).status).toBe(404)
    expect((await fetch(listener.url, { method: 'POST' })).status).toBe(404)
  })

  it('counts requests per route pattern and method, with their status and duration', async () => {
    const start = await scrape()
    const before = value(start, 'solpledge_http_requests_total', { route: `${API_BASE}/config` }) ?? 0
    const unmatched = value(start, 'solpledge_http_requests_total', { route: 'unmatched', status: '404' }) ?? 0
    for (let i = 0; i < 3; i++) expect((await ctx.app.inject({ url: `${API_BASE}/config` })).statusCode).toBe(200)
    // A contract route with a path parameter is labelled by its pattern, not by the URL asked for.
    await ctx.app.inject({ method: 'POST', url: `${API_BASE}/invest/invest_pledge/PLG`, payload: {} })
    await ctx.app.inject({ method: 'GET', url: '/no/such/page' })
    const after = await scrape()
    expect(value(after, 'solpledge_http_requests_total', { route: `${API_BASE}/config`, status: '200' })).toBe(
      before + 3,
    )
    expect(value(after, 'solpledge_http_requests_total', { route: 'unmatched', status: '404' })).toBe(unmatched + 1)
    const routes = new Set(
      after.samples.filter((s) => s.name === 'solpledge_http_requests_total').map((s) => s.labels.route),
    )
    expect(routes).toContain(`${API_BASE}/invest/invest_pledge/:product`)
    expect([...routes].filter((r) => r?.includes('/no/such') || r?.endsWith('/PLG'))).toEqual([])
    expect(
      value(after, 'solpledge_http_request_duration_seconds_count', { method: 'GET', route: `${API_BASE}/config` }),
    ).toBe(before + 3)
  })

  it('reports the database and the chain ready, and every job heartbeat as the instances recorded it', async () => {
    await recordJobRun(ctx.db, JOBS.sender)
    await recordJobRun(ctx.db, JOBS.watcher, new Error('rpc down'))
    const scraped = await scrape()
    expect(value(scraped, 'solpledge_ready', { check: 'database' })).toBe(1)
    expect(value(scraped, 'solpledge_ready', { check: 'chain' })).toBe(1)
    expect(value(scraped, 'solpledge_chain_slot')).toBeGreaterThan(0)
    const sender = value(scraped, 'solpledge_job_last_success_timestamp_seconds', { job: JOBS.sender }) ?? 0
    expect(Math.abs(sender - Date.now() / 1000)).toBeLessThan(60)
    expect(value(scraped, 'solpledge_job_failing', { job: JOBS.sender })).toBe(0)
    expect(value(scraped, 'solpledge_job_failing', { job: JOBS.watcher })).toBe(1)
    expect(value(scraped, 'solpledge_job_last_success_timestamp_seconds', { job: JOBS.watcher })).toBe(0)
    expect(value(scraped, 'solpledge_job_stale', { job: JOBS.sender })).toBe(0)
    // Nothing settled yet on this new database: the latest due day is the one day behind.
    expect(value(scraped, 'solpledge_settlement_days_behind')).toBe(1)
    // The circuit breaker: 0 while no day is held, 1 per asset and rule while one is (the alert's series).
    expect(value(scraped, 'solpledge_settlement_held', { asset: '', rule: '' })).toBe(0)
    const reasons = [{ coin: 'PLG', decimals: 9, rule: 'average', total: '9', against: '1', limit_bps: 50_000 }]
    await ctx.db
      .insertInto('settlement_runs')
      .values({
        day: '2024-02-01',
        status: 'held',
        phase: 'pay',
        summary: JSON.stringify({ hold: { at: new Date().toISOString(), reasons } }),
      })
      .execute()
    const held = await scrape()
    expect(value(held, 'solpledge_settlement_held', { asset: 'PLG', rule: 'average' })).toBe(1)
    expect(value(held, 'solpledge_settlement_held', { asset: '', rule: '' })).toBeUndefined()
    await ctx.db.deleteFrom('settlement_runs').where('day', '=', '2024-02-01').execute()
  })

  it('moves the intent, withdrawal, hot-wallet and solvency gauges with a top-up and a withdrawal', async () => {
    const start = await scrape()
    const pending = value(start, 'solpledge_payment_intents', { state: 'pending' }) ?? -1
    const user = await fundedUser(ctx, { USDT: 100n * USDT })
    const intent = await createIntent(ctx, user.auth, 'USDT', 50n * USDT)
    const afterIntent = await scrape()
    expect(value(afterIntent, 'solpledge_payment_intents', { state: 'pending' })).toBe(pending + 1)
    expect(value(afterIntent, 'solpledge_payment_intents_oldest_age_seconds', { state: 'pending' })).toBeLessThan(60)

    const signature = await pay(ctx.connection, user.keypair, intent)
    expect((await call(ctx.app, api.intentSubmit, { id: intent.id, signature }, user.auth)).code).toBe(Code.OK)
    const withdrawal = await call(ctx.app, api.withdraw, { coin: 'USDT', amount: (20n * USDT).toString() }, user.auth)
    expect(withdrawal.code).toBe(Code.OK)
    const queued = await scrape()
    expect(value(queued, 'solpledge_payment_intents', { state: 'pending' })).toBe(pending)
    expect(value(queued, 'solpledge_withdrawals', { state: 'pending', asset: 'USDT' })).toBe(1)
    expect(value(queued, 'solpledge_withdrawals', { state: 'review', asset: 'USDT' })).toBe(0)
    expect(value(queued, 'solpledge_withdrawals_oldest_age_seconds', { state: 'pending', asset: 'USDT' })).toBeLessThan(
      60,
    )
    // 20 USDT less the 1 USDT fee is what the hot wallet pays; SOL: the most one payout can cost.
    expect(value(queued, 'solpledge_withdrawals_queued_amount', { asset: 'USDT' })).toBe(19)
    expect(value(queued, 'solpledge_withdrawals_queued_amount', { asset: 'SOL' })).toBe(0.00204428)
    const hotUsdt = value(queued, 'solpledge_hot_wallet_balance', { asset: 'USDT' }) ?? 0
    expect(hotUsdt).toBeGreaterThan(19)
    expect(value(queued, 'solpledge_hot_wallet_balance', { asset: 'SOL' })).toBeGreaterThan(0)
    // The deposit reached the treasury: users are owed 50 USDT, the platform holds that and the hot wallet's float.
    expect(value(queued, 'solpledge_solvency_liabilities', { asset: 'USDT' })).toBe(50)
    expect(value(queued, 'solpledge_solvency_holdings', { asset: 'USDT' })).toBe(50 + hotUsdt)
    expect(value(queued, 'solpledge_solvency_ratio', { asset: 'USDT' })).toBeGreaterThanOrEqual(1)
    expect(value(queued, 'solpledge_hot_wallet_cannot_pay', { kind: 'token_balance' })).toBe(0)

    await sendAll(ctx)
    const paid = await scrape()
    expect(value(paid, 'solpledge_withdrawals', { state: 'pending', asset: 'USDT' })).toBe(0)
    expect(value(paid, 'solpledge_withdrawals', { state: 'sent', asset: 'USDT' })).toBe(0)
    expect(value(paid, 'solpledge_withdrawals_queued_amount', { asset: 'USDT' })).toBe(0)
    expect(value(paid, 'solpledge_hot_wallet_balance', { asset: 'USDT' })).toBe(hotUsdt - 19)
    expect(value(paid, 'solpledge_solvency_liabilities', { asset: 'USDT' })).toBe(30)
  })

  it('still answers while the RPC is down: the chain not ready, the database gauges there, the chain ones left out', async () => {
    const closed = net.createServer().listen(0, '127.0.0.1')
    await new Promise((resolve) => closed.once('listening', resolve))
    const { port } = closed.address() as net.AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    const config = { ...ctx.app.config, rpcUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}` }
    const app = await buildApp({ db: ctx.db, config, platform: await loadPlatform(config) })
    const down = await serveMetrics(app.metrics, '127.0.0.1', 0)
    try {
      const scraped = parse(await (await fetch(down.url)).text())
      expect(value(scraped, 'solpledge_ready', { check: 'chain' })).toBe(0)
      expect(value(scraped, 'solpledge_ready', { check: 'database' })).toBe(1)
      expect(value(scraped, 'solpledge_withdrawals', { state: 'pending', asset: 'USDT' })).toBe(0)
      expect(value(scraped, 'solpledge_hot_wallet_balance', { asset: 'USDT' })).toBeUndefined()
      expect(value(scraped, 'solpledge_solvency_ratio', { asset: 'USDT' })).toBeUndefined()
    } finally {
      await down.close()
      await app.close()
    }
  })

  /** Every series name a scrape can hold: the families, and a histogram's _bucket, _sum and _count. */
  async function exportedNames() {
    const { types } = await scrape()
    const exported = new Set<string>()
    for (const [name, type] of types) {
      exported.add(name)
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exported.add(name + suffix)
    }
    return { exported, families: [...types.keys()] }
  }

  it('exports every metric the alerting rules use (docs/operations/alerts.yml)', async () => {
    const { exported } = await exportedNames()
    const used = new Set(fs.readFileSync(ALERTS, 'utf8').match(/\bsolpledge_[a-z0-9_]+/g))
    expect(used.size).toBeGreaterThan(5)
    expect([...used].filter((name) => !exported.has(name))).toEqual([])
  })

  it('has a Grafana panel for every solpledge metric family, and no panel queries one it does not export', async () => {
    const { exported, families } = await exportedNames()
    type Panel = { title: string; targets?: { expr: string }[] }
    const panels = (JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] }).panels
    const queried = new Map<string, string>()
    for (const panel of panels)
      for (const target of panel.targets ?? [])
        for (const name of target.expr.match(/\b(solpledge|nodejs|process)_[a-z0-9_]+/g) ?? [])
          queried.set(name, panel.title)
    expect(
      [...queried].filter(([name]) => !exported.has(name)),
      'queried, not exported (panel)',
    ).toEqual([])
    const shown = new Set([...queried.keys()].map((name) => name.replace(/_(bucket|sum|count)$/, '')))
    const ours = families.filter((name) => name.startsWith('solpledge_'))
    expect(ours.length).toBeGreaterThan(20)
    expect(
      ours.filter((name) => !shown.has(name) && !queried.has(name)),
      'exported, on no panel',
    ).toEqual([])
  })
})
