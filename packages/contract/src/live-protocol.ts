// The live channel's plain values (docs/architecture.md "Live updates"), without schemas: the web app imports these.
// The messages' schemas and types are in live.ts.

/** The channel: a WebSocket at API_BASE + LIVE_PATH (GET with Upgrade: websocket). */
export const LIVE_PATH = '/live'

/** Topics anyone may subscribe to, signed in or not. */
export const PUBLIC_TOPICS = ['market', 'home', 'notice', 'config', 'liabilities', 'rank'] as const
/**
 * Every topic: the public ones, `user` (the signed-in user's own: the server maps it to that user, so no client can
 * name another user's) and `console` (operators with an admin session).
 */
export const LIVE_TOPICS = [...PUBLIC_TOPICS, 'user', 'console'] as const
export type LiveTopic = (typeof LIVE_TOPICS)[number]

/** Book levels per side in the market topic's `book` events: what a client's book shows at most. */
export const LIVE_BOOK_DEPTH = 20

/** How often the server pings (a `ping` message, answered by `pong`); a client that misses one is closed. */
export const LIVE_HEARTBEAT_MS = 30_000

/** Close codes beyond the standard ones: the client reconnects after all of them but `sessionInvalid`'s auth. */
export const LIVE_CLOSE = {
  /** The server is stopping: reconnect (another instance answers). */
  goingAway: 1001,
  /** A message the protocol does not know, or not JSON. */
  protocol: 4400,
  /** The session or admin session of `auth` is not (or no longer) valid: sign in again. */
  sessionInvalid: 4401,
  /** No `pong` to the last `ping`. */
  heartbeat: 4408,
  /** The client read too slowly: its unsent messages passed the server's bound. Reconnect and take a snapshot. */
  tooSlow: 4409,
  /** Too many connections from this session or this address. */
  tooMany: 4429,
} as const
