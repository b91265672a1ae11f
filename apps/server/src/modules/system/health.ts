// Liveness and readiness (docs/operations.md): the database, the chain's RPC and the jobs, each reported on its own.
import { createSolanaRpcFromTransport } from '@solana/kit'
import type { HealthReport, HotWalletState } from '@solpledge/contract'
import { sql } from 'kysely'
import { buildInfo } from '../../build-info.ts'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/index.ts'
import { jobIntervals } from '../../lib/jobs.ts'
import type { Platform } from '../../platform.ts'

/** How long a check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2000

/** Runs a check within CHECK_TIMEOUT_MS: ok with its value and how long it took, or the error. */
export async function timed<T>(check: (signal: AbortSignal) => Promise<T>) {
  const started = Date.now()
  const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS)
  try {
    const value = await Promise.race([
      check(signal),
      new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`))),
      ),
    ])
    return { ok: true, ms: Date.now() - started, value }
  } catch (error) {
    return { ok: false, ms: Date.now() - started, error: (error as Error).message || String(error) }
  }
}

/** The hot wallet's gauge as the API shows it. */
export function hotWalletState(platform: Platform): HotWalletState {
  const { problem, since, refusedTotal } = platform.hotWalletStatus
  return {
    address: platform.hotWallet.address,
    refused_total: refusedTotal,
    problem: problem && { ...problem, since: (since ?? new Date()).toISOString() },
  }
}

/** The readiness report: ready when the database and the RPC answer; jobs and the hot wallet are reported only. */
export async function readiness(db: Database, config: Config, platform: Platform, now = new Date()) {
  const { commitment, endpoints } = platform.chain
  const [database, chain, ...each] = await Promise.all([
    timed(() => sql`select 1`.execute(db)),
    timed((abortSignal) => platform.chain.rpc.getSlot({ commitment }).send({ abortSignal })),
    ...endpoints.direct.map((transport) =>
      timed((abortSignal) => createSolanaRpcFromTransport(transport).getSlot({ commitment }).send({ abortSignal })),
    ),
  ])
  const calls = endpoints.status()
  const intervals = jobIntervals(config)
  const beats = database.ok ? await db.selectFrom('job_heartbeats').selectAll().orderBy('name').execute() : []
  const report: HealthReport = {
    status: database.ok && chain.ok ? 'ok' : 'unavailable',
    ...buildInfo(),
    database: { ok: database.ok, ms: database.ms, ...(database.error ? { error: database.error } : {}) },
    chain: {
      ok: chain.ok,
      ms: chain.ms,
      cluster: config.cluster,
      slot: chain.ok ? String(chain.value) : null,
      ...(chain.error ? { error: chain.error } : {}),
      endpoints: each.map((check, i) => ({
        host: calls[i]?.host ?? '',
        ok: check.ok,
        ms: check.ms,
        slot: check.ok ? String(check.value) : null,
        failures: calls[i]?.failures ?? 0,
        ...(check.error ? { error: check.error } : {}),
      })),
    },
    jobs: beats.map((beat) => {
      const every = intervals[beat.name] ?? 0
      const okAt = beat.last_ok_at && new Date(beat.last_ok_at)
      return {
        name: beat.name,
        last_ok_at: okAt ? okAt.toISOString() : null,
        last_error: beat.last_error,
        stale: every > 0 && (!okAt || now.getTime() - okAt.getTime() > 3 * every),
      }
    }),
    hot_wallet: hotWalletState(platform),
  }
  return report
}
