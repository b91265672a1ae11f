// Plain values shared by server, web and tests, without schemas: the web app's first chunk imports these.
/** Every API path is POST under this base (docs/product.md#requests). Paths match case-insensitively. */
export const API_BASE = '/api'
/** The app-key header the web app sends on every request (docs/product.md#requests). Informational: it is public. */
export const APP_KEY = 'solpledge-web'
/** Login type value (docs/product.md#login). */
export const LOGIN_TYPE = '3'
/** Largest JSON body the API accepts. */
export const MAX_BODY_BYTES = 64 * 1024
/**
 * The request header that makes a money call safe to repeat (IETF httpapi Idempotency-Key draft): on routes whose
 * contract says `idempotent: true`, the same key from the same caller with the same body answers the first answer
 * again and does nothing twice. Optional: calls without it keep working.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key'
/** Set ('true') on an answer replayed from an earlier request with the same Idempotency-Key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed'
/**
 * The page's element the server writes the ClientConfig into, as JSON (apps/server/src/plugins/web-app.ts); the web
 * app reads it before it would ask GET /api/config.
 */
export const CLIENT_CONFIG_ELEMENT = 'client-config'
/**
 * Where the web build (apps/web/vite.config.ts) writes, below its output folder, which files each screen and each
 * language's strings need beyond the entry (WebPreloads); the server names them in the page. Never served.
 */
export const WEB_PRELOADS_FILE = '.vite/preloads.json'
/** Chunks and stylesheets, as paths in the web build ('assets/pledge-screen-….js'). */
export interface WebFiles {
  scripts: string[]
  styles: string[]
}
export interface WebPreloads {
  /** Each screen by React Router's pattern ('/notice/detail/:id', '/admin/*', '*'), in the app's order. */
  screens: (WebFiles & { path: string })[]
  /** Each language's strings. */
  languages: Record<string, WebFiles>
}
/** Token icons the web app ships (apps/web/public/tokens): USDT and SOL, and one mark for the platform's own tokens. */
const TOKEN_ICONS: Readonly<Record<string, string>> = { USDT: '/tokens/usdt.svg', SOL: '/tokens/sol.svg' }
/** A token's icon, a path of this site (the Content-Security-Policy allows no other image source). */
export const tokenIcon = (symbol: string): string => TOKEN_ICONS[symbol] ?? '/tokens/token.svg'

/** Every kind of ledger transfer the server makes: the server accepts no other, the web app labels each one. */
export const LEDGER_TYPES = [
  'deposit',
  'withdraw_lock',
  'withdraw_pay',
  'withdraw_fee',
  'withdraw_refund',
  'stake',
  'node_purchase',
  'finance_deposit',
  'finance_redeem',
  'settlement',
  'trade_lock',
  'trade_unlock',
  'trade',
  'trade_fee',
  'admin_adjustment',
] as const
/** The chart's candle intervals (the contract's CandleInterval) and their length in seconds. */
export const CANDLE_SECONDS = { '1m': 60, '5m': 300, '15m': 900, '1h': 3600, '4h': 14_400, '1d': 86_400 } as const
/** Most tiers a campaign has (docs/admin.md#campaigns). */
export const CAMPAIGN_MAX_TIERS = 10
