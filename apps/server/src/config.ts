import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { ed25519 } from '@noble/curves/ed25519'
import { getBase58Encoder, isAddress } from '@solana/kit'
import { ADMIN_ROLES, type AdminRole, LIVE_HEARTBEAT_MS } from '@solpledge/contract'
import { DEFAULT_PRIORITY_FEE, type PriorityFee } from './chain/rpc.ts'
import { addressOf, type StoredKeypair } from './lib/keys.ts'

/** Server configuration, read once from the environment (README.md lists every variable). */
export interface LiveSettings {
  /** Open connections per client address (LIVE_MAX_PER_IP); more are refused with HTTP 429 before the upgrade. */
  maxPerIp: number
  /** Connections one session (or admin session) may authenticate (LIVE_MAX_PER_SESSION). */
  maxPerSession: number
  /** Unsent bytes a connection may hold before it is cut as too slow (LIVE_MAX_BUFFER_BYTES). */
  maxBufferBytes: number
  /** How long the outbox keeps events for clients that resume (LIVE_RETENTION_MINUTES). */
  retentionMinutes: number
  /** Interval of the pings (tests shorten it). */
  heartbeatMs: number
}

export interface Config {
  host: string
  port: number
  /** Where the embedded database, keys and uploads live. */
  dataDir: string
  /** PostgreSQL connection string; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl: string | undefined
  /** A direct or session-mode URL of the same database for the live channel's LISTEN (DATABASE_LISTEN_URL). */
  databaseListenUrl: string | undefined
  /**
   * Whether the hot statements registered in db/pg-driver.ts go out as named prepared statements
   * (DATABASE_PREPARED_STATEMENTS, on by default; off behind a transaction-mode pooler that does not keep them).
   */
  databasePreparedStatements: boolean
  /**
   * True only when the chain is the local one that `npm start` (or a test) launched itself: SOLPLEDGE_LOCAL_CHAIN=1,
   * which the launcher sets. Only then the demo wallet, the faucet, generated keys, the first-admin rule and demo
   * content exist. Never inferred from a missing variable.
   */
  localChain: boolean
  /** Solana cluster name: localnet (the local chain), devnet, testnet or mainnet-beta. */
  cluster: string
  /**
   * The server's own RPC endpoints (may carry a provider's API key: never given to browsers): the primary, and the
   * ones it fails over to in order (SOLANA_RPC_URL or SOLANA_RPC_URLS, comma-separated; chain/endpoints.ts).
   */
  rpcUrl: string
  rpcFallbackUrls: string[]
  wsUrl: string
  /** The priority fee of the transactions the server signs (PRIORITY_FEE_* settings, docs/operations.md). */
  priorityFee: PriorityFee
  /** The RPC endpoints browsers are given (GET /api/config): SOLANA_PUBLIC_RPC_URL / SOLANA_PUBLIC_WS_URL. */
  publicRpcUrl: string
  publicWsUrl: string
  /** Receives deposits: an address only (its key stays cold). On the local chain, generated when not given. */
  treasuryAddress: string | undefined
  /** Pays withdrawals: HOT_WALLET_KEY or HOT_WALLET_KEYFILE. On the local chain, generated when not given. */
  hotWalletKey: StoredKeypair | undefined
  /**
   * Signs the proof-of-liabilities memo (modules/liabilities): TREASURY_KEY or TREASURY_KEYFILE, optional; it must be
   * the key of TREASURY_ADDRESS. Without it (and off the local chain, which generates the treasury) the hot wallet
   * signs the memo instead, which the server says at start (docs/operations.md).
   */
  treasuryKey: StoredKeypair | undefined
  /** Demo notices and banners on the first start: on the local chain, or SEED_DEMO=1. */
  seedDemo: boolean
  /** Origins people open the app at; their hosts are the domains a sign-in message may name. */
  publicUrls: string[]
  /** Origins the web app may connect to besides the API and the RPC/WS endpoints (Content-Security-Policy). */
  cspConnectSrc: string[]
  /** A user session's absolute lifetime, however active it is (SESSION_TTL_HOURS, default 7 days). */
  sessionTtlHours: number
  /** A user session ends after this long without a call (SESSION_IDLE_HOURS, default 24 h). */
  sessionIdleHours: number
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
  /** Login calls allowed per client IP per minute and route, counted over all instances (in the database). */
  loginRateLimit: number
  /** The live channel's limits (docs/operations.md "Live updates"). */
  live: LiveSettings
  /** Calls of each public read allowed per client IP per minute, counted by each instance (0 = no limit). */
  publicRateLimit: number
  /**
   * Which proxies are trusted to name the client in X-Forwarded-For (TRUST_PROXY): false (none: the client is the
   * connection's peer), a hop count, or the proxies' addresses and CIDRs. Never "every sender".
   */
  trustProxy: TrustProxy
  /** The whole request (headers and body) must arrive within this many ms, or it is answered 408 and closed. */
  requestTimeoutMs: number
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
   * right after that step of the withdrawal sender, to prove that a crash there never pays twice; 'committed'
   * (idempotency-crash.test.ts) right after a money call with an Idempotency-Key committed, before its answer is sent.
   * Never set it in production.
   */
  crashAt: string | undefined
  /** Root user's wallet address (required off the local chain); on the local chain a key is generated under dataDir. */
  rootAddress: string | undefined
  /** Secret for operator calls (Operator-Token header); when absent one is generated under dataDir/keys. */
  operatorToken: string | undefined
  /** The operator console's allow-list from ADMIN_ADDRESSES ("address:role,…"); set again at every start. */
  adminAddresses: { address: string; role: AdminRole }[]
  /** How long an operator console session lasts. */
  adminSessionTtlHours: number
  /**
   * The notice period of a change that raises what the platform pays or lowers what it takes (docs/economics.md):
   * announced to users when decided, in force this many hours later (ECONOMICS_NOTICE_HOURS, default 24).
   */
  economicsNoticeHours: number
  /** Prometheus metrics listener (GET /metrics), apart from the public port: METRICS_PORT (0 = off), METRICS_HOST. */
  metricsPort: number
  metricsHost: string
  logLevel: string
  /** NODE_ENV=production: every line the server writes is JSON, its start lines too (docs/operations.md "Logs"). */
  production: boolean
}

/** ADMIN_ADDRESSES: comma-separated `address:role` entries, role one of viewer, operator, admin. */
export function parseAdminAddresses(value: string | undefined): { address: string; role: AdminRole }[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  return entries.map((entry) => {
    const [address = '', role = '', ...rest] = entry.split(':').map((part) => part.trim())
    if (rest.length || !isAddress(address) || !(ADMIN_ROLES as readonly string[]).includes(role))
      throw new Error(`ADMIN_ADDRESSES: "${entry}" must be <wallet address>:<${ADMIN_ROLES.join('|')}>`)
    return { address, role: role as AdminRole }
  })
}

/** TRUST_PROXY as Fastify's `trustProxy` takes it: none, a hop count, or addresses and CIDRs. */
export type TrustProxy = false | number | string[]

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const TRUST_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal']

/**
 * TRUST_PROXY: unset or 0 → no proxy (the client is the connection's peer); a positive integer → that many proxies in
 * front, the client is the address the outermost one saw (X-Forwarded-For read from the right); otherwise a
 * comma-separated list of the proxies' addresses, CIDRs or proxy-addr's ranges (loopback, linklocal, uniquelocal).
 * Anything that trusts every sender (true, *, 0.0.0.0/0, ::/0) is refused: any client could then choose its address.
 * Throws the problem's message.
 */
export function parseTrustProxy(text: string | undefined): TrustProxy {
  const value = text?.trim() ?? ''
  if (value === '' || value === '0') return false
  if (/^\d+$/.test(value)) return Number(value)
  const why =
    'must be the number of proxies in front of the server (1 for one) or a comma-separated list of their ' +
    `addresses or CIDRs (e.g. 127.0.0.1,10.0.0.0/8), got "${value}"`
  if (/^(true|yes|on|all|\*)$/i.test(value))
    throw new Error(
      `TRUST_PROXY=${value} would believe any sender's X-Forwarded-For, so any client could choose its address: it ${why}`,
    )
  const entries = value.split(',').map((entry) => entry.trim())
  for (const entry of entries) {
    if (TRUST_PROXY_RANGES.includes(entry)) continue
    const [ip = '', prefix, ...rest] = entry.split('/')
    const family = net.isIP(ip)
    const bits = family === 4 ? 32 : 128
    if (family === 0 || rest.length > 0 || (prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= bits)))
      throw new Error(`TRUST_PROXY ${why}`)
    if (prefix !== undefined && Number(prefix) === 0)
      throw new Error(`TRUST_PROXY: "${entry}" trusts every address, so any client could choose its own: it ${why}`)
  }
  return entries
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` option: a hop count becomes "the nearest `hops` senders are proxies" (Fastify
 * itself takes a number as trusting none), a list is given as it is (proxy-addr compiles it).
 */
export function trustProxyOption(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust
}

/** A configuration the server refuses to start with; `problems` names every missing or contradictory setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `solpledge cannot start: ${problems.length === 1 ? 'a setting is' : `${problems.length} settings are`} ` +
        `missing or wrong (README.md, "Configuration for production"):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    )
    this.name = 'ConfigError'
  }
}

const REAL_CLUSTERS = ['mainnet-beta', 'devnet', 'testnet'] as const
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** The WebSocket endpoint beside an RPC URL: same host, ws(s), and the next port when the URL names one. */
const wsUrlOf = (rpcUrl: string) =>
  rpcUrl.replace(/^http/, 'ws').replace(/:(\d+)(\/?)$/, (_, p, s) => `:${Number(p) + 1}${s}`)

/**
 * A hot-wallet key: a solana-keygen JSON array (64 bytes, or a 32-byte seed) or base58 (as wallets export it). Throws
 * a message that never contains the key.
 */
export function parseSecretKey(text: string): StoredKeypair {
  const value = text.trim()
  let bytes: Uint8Array
  try {
    const parsed: unknown = value.startsWith('[') ? JSON.parse(value) : undefined
    if (Array.isArray(parsed) && parsed.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) throw new Error()
    bytes = Uint8Array.from(Array.isArray(parsed) ? parsed : getBase58Encoder().encode(value))
  } catch {
    throw new Error('is neither a JSON array of bytes nor base58')
  }
  if (bytes.length !== 64 && bytes.length !== 32)
    throw new Error(`has ${bytes.length} bytes, not 64 (or a 32-byte seed)`)
  const publicKey = ed25519.getPublicKey(bytes.subarray(0, 32))
  if (bytes.length === 64 && !publicKey.every((b, i) => b === bytes[32 + i]))
    throw new Error('is not a keypair: its public half does not match its secret half')
  const secretKey = new Uint8Array(64)
  secretKey.set(bytes.subarray(0, 32))
  secretKey.set(publicKey, 32)
  return { address: addressOf(publicKey), secretKey }
}

/**
 * Reads and checks the configuration. Every problem is collected, and the server refuses to start with a ConfigError
 * listing them all: off the local chain (production) the cluster, its RPC, the browsers' RPC, the mints, the treasury
 * address, the hot-wallet key, the root address and PUBLIC_URL are required, and local-chain or test-only settings are
 * refused.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = []
  const value = (name: string) => env[name]?.trim() || undefined
  const int = (name: string, fallback: number): number => {
    const text = value(name)
    if (text === undefined) return fallback
    const n = Number(text)
    if (Number.isInteger(n) && n >= 0) return n
    problems.push(`${name} must be a non-negative integer, got "${text}"`)
    return fallback
  }
  const url = (name: string, text: string | undefined, protocols: string[]) => {
    if (text === undefined || (URL.canParse(text) && protocols.includes(new URL(text).protocol))) return
    problems.push(`${name} must be a ${protocols.map((p) => p.slice(0, -1)).join(' or ')} URL, got "${text}"`)
  }
  const address = (name: string) => {
    const text = value(name)
    if (text !== undefined && !isAddress(text)) problems.push(`${name} must be a base58 address, got "${text}"`)
    return text
  }
  const required = (names: string[], why: string) => {
    const missing = names.filter((name) => value(name) === undefined)
    for (const name of missing) problems.push(`${name} is required ${why}`)
  }

  const flag = value('SOLPLEDGE_LOCAL_CHAIN')
  if (flag !== undefined && flag !== '1' && flag !== '0')
    problems.push(`SOLPLEDGE_LOCAL_CHAIN must be 1 (the chain npm start launched) or left out, got "${flag}"`)
  const localChain = flag === '1'
  const port = int('PORT', 3000)
  const metricsPort = int('METRICS_PORT', 0)
  if (metricsPort && metricsPort === port) problems.push(`METRICS_PORT must not be PORT (${port}): metrics stay off it`)
  const cluster = value('SOLANA_CLUSTER') ?? (localChain ? 'localnet' : '')
  if (value('SOLANA_RPC_URL') && value('SOLANA_RPC_URLS'))
    problems.push('SOLANA_RPC_URL and SOLANA_RPC_URLS are both set: list the endpoints once')
  const rpcUrls = (value('SOLANA_RPC_URLS') ?? value('SOLANA_RPC_URL') ?? (localChain ? 'http://127.0.0.1:8899' : ''))
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
  const [rpcUrl = '', ...rpcFallbackUrls] = rpcUrls
  const wsUrl = value('SOLANA_WS_URL') ?? (rpcUrl && wsUrlOf(rpcUrl))
  const publicRpcUrl = value('SOLANA_PUBLIC_RPC_URL') ?? (localChain ? rpcUrl : '')
  const publicWsUrl =
    value('SOLANA_PUBLIC_WS_URL') ?? (value('SOLANA_PUBLIC_RPC_URL') ? wsUrlOf(publicRpcUrl) : localChain ? wsUrl : '')
  const publicUrls = (value('PUBLIC_URL') ?? `http://localhost:${port},http://127.0.0.1:${port}`)
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
  for (const entry of publicUrls) url('PUBLIC_URL', entry, ['http:', 'https:'])
  if (cluster === 'mainnet-beta')
    for (const entry of publicUrls.filter((u) => URL.parse(u)?.protocol === 'http:'))
      problems.push(
        `PUBLIC_URL ${entry} is plain http on mainnet-beta: session tokens and signed messages would cross the network ` +
          'unencrypted; use https (behind the TLS proxy, docs/operations.md)',
      )
  const cspConnectSrc = (value('CSP_CONNECT_SRC') ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
  for (const entry of cspConnectSrc)
    if (!/^(https?|wss?):$/.test(URL.parse(entry)?.protocol ?? ''))
      problems.push(`CSP_CONNECT_SRC: "${entry}" must be an http(s) or ws(s) URL`)
  for (const entry of rpcUrls) url('SOLANA_RPC_URL', entry, ['http:', 'https:'])
  url('SOLANA_WS_URL', wsUrl || undefined, ['ws:', 'wss:'])
  url('SOLANA_PUBLIC_RPC_URL', value('SOLANA_PUBLIC_RPC_URL'), ['http:', 'https:'])
  url('SOLANA_PUBLIC_WS_URL', publicWsUrl || undefined, ['ws:', 'wss:'])
  const treasuryAddress = address('TREASURY_ADDRESS')
  const rootAddress = address('ROOT_ADDRESS')
  const productMint = address('PRODUCT_MINT')
  const usdtMint = address('USDT_MINT')

  /** A key given as NAME (base58 or a JSON array) or as NAME + 'FILE' (a solana-keygen file), at most once. */
  const secretKey = (name: string, what: string): StoredKeypair | undefined => {
    const [key, keyFile] = [value(name), value(`${name}FILE`)]
    if (key && keyFile) problems.push(`${name} and ${name}FILE are both set: give the ${what} key once`)
    else if (key || keyFile) {
      try {
        // As ssh refuses a private key others can read: the file must be its owner's alone (chmod 0400 or 0600).
        const mode = keyFile ? fs.statSync(keyFile).mode & 0o777 : 0
        if (mode & 0o077) {
          problems.push(
            `${name}FILE ${keyFile} is open to its group or others (mode 0${mode.toString(8)}): ` +
              `chmod 0400 it and chown it to the server's user (docs/operations.md, "Keys")`,
          )
          return undefined
        }
        return parseSecretKey(key ?? fs.readFileSync(keyFile as string, 'utf8'))
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ? `cannot be read (${(error as Error).message})` : ''
        problems.push(`${key ? name : `${name}FILE`} ${reason || (error as Error).message}`)
      }
    }
    return undefined
  }
  const [key, keyFile] = [value('HOT_WALLET_KEY'), value('HOT_WALLET_KEYFILE')]
  const hotWalletKey = secretKey('HOT_WALLET_KEY', 'hot-wallet')
  const treasuryKey = secretKey('TREASURY_KEY', 'treasury')
  if (treasuryKey && treasuryAddress && treasuryKey.address !== treasuryAddress)
    problems.push(`TREASURY_KEY is the key of ${treasuryKey.address}, not of TREASURY_ADDRESS ${treasuryAddress}`)

  if (localChain) {
    if (cluster !== 'localnet')
      problems.push(`SOLPLEDGE_LOCAL_CHAIN=1 (the chain npm start launched) contradicts SOLANA_CLUSTER=${cluster}`)
    for (const entry of rpcUrls)
      if (URL.canParse(entry) && !LOOPBACK.has(new URL(entry).hostname))
        problems.push(
          `SOLPLEDGE_LOCAL_CHAIN=1 needs the local chain on this machine, but SOLANA_RPC_URL is on ${new URL(entry).host}`,
        )
    for (const name of ['PRODUCT_MINT', 'USDT_MINT'])
      if (value(name)) problems.push(`${name} is for a real cluster: the local chain makes its own mints`)
  } else {
    if (!cluster) problems.push(`SOLANA_CLUSTER is required: one of ${REAL_CLUSTERS.join(', ')}`)
    else if (cluster === 'localnet')
      problems.push(
        'SOLANA_CLUSTER=localnet is only the chain npm start launches itself (it sets SOLPLEDGE_LOCAL_CHAIN=1); ' +
          `name the cluster SOLANA_RPC_URL is on: ${REAL_CLUSTERS.join(', ')}`,
      )
    else if (!(REAL_CLUSTERS as readonly string[]).includes(cluster))
      problems.push(`SOLANA_CLUSTER must be one of ${REAL_CLUSTERS.join(', ')}, got "${cluster}"`)
    const onReal = 'off the local chain'
    if (rpcUrls.length === 0)
      problems.push(
        `SOLANA_RPC_URL is required ${onReal}: the cluster's JSON-RPC endpoint for the server (a comma-separated list fails over)`,
      )
    required(
      ['SOLANA_PUBLIC_RPC_URL'],
      `${onReal}: the RPC endpoint browsers are given (it may equal SOLANA_RPC_URL if that carries no secret)`,
    )
    required(['PRODUCT_MINT', 'USDT_MINT'], `${onReal}: the token mints`)
    required(['TREASURY_ADDRESS'], `${onReal}: the address that receives deposits (its key stays off this host)`)
    if (!key && !keyFile)
      problems.push(
        `HOT_WALLET_KEY or HOT_WALLET_KEYFILE is required ${onReal}: the key of the wallet that pays withdrawals`,
      )
    required(['ROOT_ADDRESS'], `${onReal}: the root user's wallet (the first invite code)`)
    required(['PUBLIC_URL'], `${onReal}: the origins users open (sign-in messages name their hosts)`)
    for (const name of ['CRASH_AT', 'SETTLEMENT_CRASH_AFTER_BATCHES'])
      if (value(name)) problems.push(`${name} is for the crash tests on the local chain only`)
  }
  if (hotWalletKey && hotWalletKey.address === treasuryAddress)
    problems.push('TREASURY_ADDRESS must not be the hot wallet: the treasury is the cold side')

  const priorityFee: PriorityFee = {
    fixed:
      value('PRIORITY_FEE_MICRO_LAMPORTS') === undefined ? undefined : BigInt(int('PRIORITY_FEE_MICRO_LAMPORTS', 0)),
    max: BigInt(int('PRIORITY_FEE_MAX_MICRO_LAMPORTS', Number(DEFAULT_PRIORITY_FEE.max))),
    percentile: int('PRIORITY_FEE_PERCENTILE', DEFAULT_PRIORITY_FEE.percentile),
  }
  if (priorityFee.percentile > 100)
    problems.push(`PRIORITY_FEE_PERCENTILE must be a percentile from 0 to 100, got "${priorityFee.percentile}"`)
  if (priorityFee.fixed !== undefined && priorityFee.fixed > priorityFee.max)
    problems.push(
      `PRIORITY_FEE_MICRO_LAMPORTS (${priorityFee.fixed}) is above its ceiling PRIORITY_FEE_MAX_MICRO_LAMPORTS ` +
        `(${priorityFee.max}): raise the ceiling or lower the price`,
    )

  let trustProxy: TrustProxy = false
  try {
    trustProxy = parseTrustProxy(value('TRUST_PROXY'))
  } catch (error) {
    problems.push((error as Error).message)
  }
  const requestTimeoutMs = int('REQUEST_TIMEOUT_MS', 20_000)
  if (requestTimeoutMs < 1000)
    problems.push(`REQUEST_TIMEOUT_MS must be at least 1000 (a request's headers and body must arrive within it)`)
  const prepared = value('DATABASE_PREPARED_STATEMENTS') ?? 'on'
  if (prepared !== 'on' && prepared !== 'off')
    problems.push(`DATABASE_PREPARED_STATEMENTS must be on or off, got "${prepared}"`)
  const logLevel = value('LOG_LEVEL') ?? 'info'
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  for (const name of ['SESSION_TTL_HOURS', 'SESSION_IDLE_HOURS'])
    if (value(name) === '0') problems.push(`${name} must be at least 1: a session of 0 hours ends as it starts`)

  let adminAddresses: Config['adminAddresses'] = []
  try {
    adminAddresses = parseAdminAddresses(env.ADMIN_ADDRESSES)
  } catch (error) {
    problems.push((error as Error).message)
  }
  const config: Config = {
    host: value('HOST') ?? '127.0.0.1',
    port,
    dataDir: path.resolve(value('DATA_DIR') ?? 'data'),
    databaseUrl: value('DATABASE_URL'),
    databaseListenUrl: value('DATABASE_LISTEN_URL'),
    databasePreparedStatements: prepared !== 'off',
    localChain,
    cluster,
    rpcUrl,
    rpcFallbackUrls,
    wsUrl,
    priorityFee,
    publicRpcUrl,
    publicWsUrl,
    publicUrls,
    cspConnectSrc,
    treasuryAddress,
    hotWalletKey,
    treasuryKey,
    seedDemo: localChain || value('SEED_DEMO') === '1',
    sessionTtlHours: int('SESSION_TTL_HOURS', 24 * 7),
    sessionIdleHours: int('SESSION_IDLE_HOURS', 24),
    sessionCacheMs: int('SESSION_CACHE_MS', 2000),
    valuationCacheMs: int('VALUATION_CACHE_MS', 5000),
    loginRateLimit: int('LOGIN_RATE_LIMIT', 60),
    live: {
      maxPerIp: int('LIVE_MAX_PER_IP', 200),
      maxPerSession: int('LIVE_MAX_PER_SESSION', 8),
      maxBufferBytes: int('LIVE_MAX_BUFFER_BYTES', 1024 * 1024),
      retentionMinutes: int('LIVE_RETENTION_MINUTES', 60),
      heartbeatMs: LIVE_HEARTBEAT_MS,
    },
    publicRateLimit: int('PUBLIC_RATE_LIMIT', 1200),
    trustProxy,
    requestTimeoutMs,
    webDist: value('WEB_DIST'),
    productSymbol: value('PRODUCT_SYMBOL') ?? 'PLG',
    productMint,
    usdtMint,
    watcherIntervalMs: int('WATCHER_INTERVAL_MS', 5000),
    senderIntervalMs: int('SENDER_INTERVAL_MS', 2000),
    settlementIntervalMs: int('SETTLEMENT_INTERVAL_MS', 60_000),
    rankIntervalMs: int('RANK_INTERVAL_MS', 3_600_000),
    crashAt: value('CRASH_AT'),
    rootAddress,
    operatorToken: value('OPERATOR_TOKEN'),
    adminAddresses,
    adminSessionTtlHours: int('ADMIN_SESSION_TTL_HOURS', 12),
    economicsNoticeHours: int('ECONOMICS_NOTICE_HOURS', 24),
    metricsPort,
    metricsHost: value('METRICS_HOST') ?? '127.0.0.1',
    logLevel,
    production: value('NODE_ENV') === 'production',
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}
