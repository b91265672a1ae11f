import { type Static, Type } from 'typebox'
import { HotWalletState } from './admin.ts'

/**
 * Health endpoints (GET, under API_BASE, outside the POST `api` routes). `live`: the process answers (restart it when
 * this fails). `ready`: it can serve — the database and the chain's RPC answer (take it out of the load balancer when
 * this fails: HTTP 503). `/health` is the same report as `ready`.
 */
export const HEALTH_PATHS = { health: '/health', live: '/health/live', ready: '/health/ready' } as const

const Check = {
  ok: Type.Boolean(),
  /** How long the check took, in ms. */
  ms: Type.Integer(),
  /** Why it failed (absent when ok). */
  error: Type.Optional(Type.String()),
}

/** The release an instance runs: package.json's version and the git commit it was built from (CHANGELOG.md). */
const Build = {
  version: Type.String({ description: 'The release (semantic versioning; CHANGELOG.md)' }),
  commit: Type.String({
    description: 'The git commit it was built from (`-dirty`: with uncommitted changes; unknown)',
  }),
}

export const HealthLive = Type.Object({
  status: Type.Literal('ok'),
  uptime_seconds: Type.Integer(),
  ...Build,
})
export type HealthLive = Static<typeof HealthLive>

export const HealthReport = Type.Object({
  /** ok when the database and the chain answer; unavailable (HTTP 503) otherwise. */
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  ...Build,
  database: Type.Object(Check),
  chain: Type.Object({
    ...Check,
    cluster: Type.String(),
    /** The RPC's current slot (decimal string), null when it did not answer. */
    slot: Type.Union([Type.String(), Type.Null()]),
    /**
     * Each configured RPC endpoint asked on its own (the server fails over between them): its host only, never its
     * path or query, which may carry an API key. The chain is ok while one of them answers.
     */
    endpoints: Type.Array(
      Type.Object({
        ...Check,
        host: Type.String(),
        slot: Type.Union([Type.String(), Type.Null()]),
        /** Failures in a row seen by the server's calls (0 after an answer). */
        failures: Type.Integer(),
      }),
    ),
  }),
  /**
   * Every periodic job's last pass as recorded by the server instances; `stale` when none succeeded within three of
   * its intervals (jobs do not decide readiness: another instance may be running them).
   */
  jobs: Type.Array(
    Type.Object({
      name: Type.String(),
      last_ok_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      last_error: Type.Union([Type.String(), Type.Null()]),
      stale: Type.Boolean(),
    }),
  ),
  /** Whether this instance's hot wallet could pay its last payouts (not part of readiness). */
  hot_wallet: HotWalletState,
})
export type HealthReport = Static<typeof HealthReport>

/** Runtime configuration the server hands to the web app (GET /api/config). */
export const ClientConfig = Type.Object({
  cluster: Type.String({ description: 'mainnet-beta, devnet, testnet or localnet' }),
  testnet: Type.Boolean(),
  rpcUrl: Type.String({ description: "The browsers' RPC endpoint (SOLANA_PUBLIC_RPC_URL), never the server's own" }),
  wsUrl: Type.String({ description: "The browsers' WebSocket endpoint (SOLANA_PUBLIC_WS_URL)" }),
  demoWallet: Type.Boolean({ description: 'True on the local chain npm start launched: the demo wallet is injected' }),
  productSymbol: Type.String(),
})
export type ClientConfig = Static<typeof ClientConfig>
