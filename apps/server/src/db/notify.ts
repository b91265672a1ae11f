// LISTEN/NOTIFY outside the pool (docs/architecture.md "Live updates"). On PostgreSQL a notification reaches only the
// session that listens, so each instance keeps one dedicated connection for it, never a pooled one (a pool hands
// connections around and a transaction-mode pooler such as PgBouncer does not pass notifications at all). PGlite is
// one session in this process: its own listen() delivers the notifications of every transaction committed here.
import type { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { Database } from './index.ts'

export type NotifySource = { url: string } | { pglite: PGlite }

/** How openDatabase opened each database: where its notifications come from. */
export const notifySources = new WeakMap<Database, NotifySource>()

export interface Listener {
  close(): Promise<void>
}

export interface ListenHandlers {
  /** A notification's payload, in commit order. */
  onNotify: (payload: string) => void
  /**
   * The listening session is (again) in place: notifications sent while it was not were lost, so the listener reads
   * what it may have missed. Called after the first LISTEN too.
   */
  onListening: () => void
  /** The dedicated connection broke; it is reopened after a pause. */
  onError?: (error: Error) => void
}

/** Reconnection delays of the dedicated connection: 0.5 s doubling to 15 s. */
const retryDelay = (attempt: number) => Math.min(500 * 2 ** attempt, 15_000)

/** Listens on `channel` of `db` until closed, reconnecting a broken PostgreSQL session. */
export async function listen(db: Database, channel: string, handlers: ListenHandlers): Promise<Listener> {
  const source = notifySources.get(db)
  if (!source) throw new Error('listen: this database was not opened by openDatabase')
  if ('pglite' in source) {
    const unlisten = await source.pglite.listen(channel, handlers.onNotify)
    handlers.onListening()
    return { close: async () => await unlisten() }
  }
  let closed = false
  let client: pg.Client | null = null
  let timer: NodeJS.Timeout | undefined
  const connect = async (attempt: number): Promise<void> => {
    const next = new pg.Client({ connectionString: source.url })
    let failed = false
    let established = false
    const retry = (error: Error) => {
      if (failed) return
      failed = true
      if (client === next) client = null
      next.removeAllListeners()
      next.on('error', () => {})
      void next.end().catch(() => {})
      if (closed) return
      handlers.onError?.(error)
      // A connection that worked starts the delays over; one that never did waits longer each time.
      const nextAttempt = established ? 0 : attempt + 1
      timer = setTimeout(() => void connect(nextAttempt), retryDelay(established ? 0 : attempt))
    }
    next.on('error', retry)
    next.on('end', () => retry(new Error('listening connection ended')))
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotify(message.payload ?? '')
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
    } catch (error) {
      retry(error as Error)
      return
    }
    if (failed) return
    if (closed) {
      failed = true
      next.removeAllListeners()
      await next.end().catch(() => {})
      return
    }
    client = next
    established = true
    handlers.onListening()
  }
  await connect(0)
  return {
    close: async () => {
      closed = true
      clearTimeout(timer)
      const open = client
      client = null
      open?.removeAllListeners()
      open?.on('error', () => {})
      await open?.end().catch(() => {})
    },
  }
}
