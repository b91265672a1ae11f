import path from 'node:path'
import { ADMIN_ROLES, type AdminRole } from '@solpledge/contract'
import { isWalletAddress } from './modules/auth/crypto.ts'

/** Server configuration, read once from the environment (README.md lists every variable). */
export interface Config {
  host: string
  port: number
  /** Where the embedded database, keys and uploads live. */
  dataDir: string
  /** PostgreSQL connection string; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl: string | undefined
  /** Solana cluster name: localnet (the local chain), devnet, testnet or mainnet-beta. */
  cluster: string
  rpcUrl: string
  wsUrl: string
  /** Origins people open the app at; their hosts are the domains a sign-in message may name. */
  publicUrls: string[]
  /** Origins the web app may connect to besides the API and the RPC/WS endpoints (Content-Security-Policy). */
  cspConnectSrc: string[]
  sessionTtlHours: number
  /**
   * How long a checked session is trusted from memory, in ms (0 = check the database on every call). A session revoked
   * through this server is forgotten at once; one revoked by another instance is refused within this time.
   */
  sessionCacheMs: number
  /**
   * How long a computed valuation price is reused, in ms (0 = compute it on every call): new trades reach the staking
   * minimum and the home price within this time (docs/trade.md "Valuation price").
   */
  valuationCacheMs: number
  /** Login calls allowed per client IP per minute. */
  loginRateLimit: number
  /** Built web app to serve, if present. */
  webDist: string | undefined
  productSymbol: string
  /** Mint of the platform token on a real cluster (the local chain makes its own). */
  productMint: string | undefined
  /** Mint of USDT on a real cluster. */
  usdtMint: string | undefined
  /** How often the payment-intent watcher looks for unreported payments, in ms (0 = never). */
  watcherIntervalMs: number
  /** How often the withdrawal sender pays, confirms and settles withdrawals, in ms (0 = never). */
  senderIntervalMs: number
  /** How often the daily settlement looks for due days to settle, in ms (0 = never; docs/settlement.md). */
  settlementIntervalMs: number
  /**
   * The first value of the business configuration's rankIntervalSeconds (ms; 0 = never; default hourly): the operator
   * console changes it afterwards. The ranking job looks every min(this, 60 s).
   */
  rankIntervalMs: number
  /**
   * Tests only (withdrawals-crash.test.ts): 'stored', 'sent' or 'confirmed' makes the server kill itself with SIGKILL
   * right after that step of the withdrawal sender, to prove that a crash there never pays twice. Never set it in
   * production.
   */
  crashAt: string | undefined
  /** Root user's wallet address for production; on the local chain a key is generated under dataDir. */
  rootAddress: string | undefined
  /** Secret for operator calls (Operator-Token header); when absent one is generated under dataDir/keys. */
  operatorToken: string | undefined
  /** The operator console's allow-list from ADMIN_ADDRESSES ("address:role,…"); set again at every start. */
  adminAddresses: { address: string; role: AdminRole }[]
  /** How long an operator console session lasts. */
  adminSessionTtlHours: number
  logLevel: string
}

/** ADMIN_ADDRESSES: comma-separated `address:role` entries, role one of viewer, operator, admin. */
export function parseAdminAddresses(value: string | undefined): { address: string; role: AdminRole }[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  return entries.map((entry) => {
    const [address = '', role = '', ...rest] = entry.split(':').map((part) => part.trim())
    if (rest.length || !isWalletAddress(address) || !(ADMIN_ROLES as readonly string[]).includes(role))
      throw new Error(`ADMIN_ADDRESSES: "${entry}" must be <wallet address>:<${ADMIN_ROLES.join('|')}>`)
    return { address, role: role as AdminRole }
  })
}

const int = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`)
  return n
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 3000, 'PORT')
  const cluster = env.SOLANA_CLUSTER || 'localnet'
  const rpcUrl = env.SOLANA_RPC_URL || 'http://127.0.0.1:8899'
  const wsUrl =
    env.SOLANA_WS_URL || rpcUrl.replace(/^http/, 'ws').replace(/:(\d+)(\/?)$/, (_, p, s) => `:${Number(p) + 1}${s}`)
  const publicUrls = (env.PUBLIC_URL || `http://localhost:${port},http://127.0.0.1:${port}`)
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
  for (const url of publicUrls) new URL(url) // throws on a malformed entry
  const cspConnectSrc = (env.CSP_CONNECT_SRC ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
  for (const url of cspConnectSrc)
    if (!/^(https?|wss?):$/.test(URL.parse(url)?.protocol ?? ''))
      throw new Error(`CSP_CONNECT_SRC: "${url}" must be an http(s) or ws(s) URL`)
  return {
    host: env.HOST || '127.0.0.1',
    port,
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    cluster,
    rpcUrl,
    wsUrl,
    publicUrls,
    cspConnectSrc,
    sessionTtlHours: int(env.SESSION_TTL_HOURS, 24 * 7, 'SESSION_TTL_HOURS'),
    sessionCacheMs: int(env.SESSION_CACHE_MS, 2000, 'SESSION_CACHE_MS'),
    valuationCacheMs: int(env.VALUATION_CACHE_MS, 5000, 'VALUATION_CACHE_MS'),
    loginRateLimit: int(env.LOGIN_RATE_LIMIT, 60, 'LOGIN_RATE_LIMIT'),
    webDist: env.WEB_DIST,
    productSymbol: env.PRODUCT_SYMBOL || 'PLG',
    productMint: env.PRODUCT_MINT || undefined,
    usdtMint: env.USDT_MINT || undefined,
    watcherIntervalMs: int(env.WATCHER_INTERVAL_MS, 5000, 'WATCHER_INTERVAL_MS'),
    senderIntervalMs: int(env.SENDER_INTERVAL_MS, 2000, 'SENDER_INTERVAL_MS'),
    settlementIntervalMs: int(env.SETTLEMENT_INTERVAL_MS, 60_000, 'SETTLEMENT_INTERVAL_MS'),
    rankIntervalMs: int(env.RANK_INTERVAL_MS, 3_600_000, 'RANK_INTERVAL_MS'),
    crashAt: env.CRASH_AT || undefined,
    rootAddress: env.ROOT_ADDRESS || undefined,
    operatorToken: env.OPERATOR_TOKEN || undefined,
    adminAddresses: parseAdminAddresses(env.ADMIN_ADDRESSES),
    adminSessionTtlHours: int(env.ADMIN_SESSION_TTL_HOURS, 12, 'ADMIN_SESSION_TTL_HOURS'),
    logLevel: env.LOG_LEVEL || 'info',
  }
}

export const isLocalChain = (config: Pick<Config, 'cluster'>) => config.cluster === 'localnet'
