/**
 * The top-up in flight, kept in sessionStorage until the server has its transaction so that a reload can still report
 * it. Losing it loses nothing: the server's watcher finds payments by their reference key too.
 */
export const PENDING_TOP_UP_KEY = 'solpledge.pendingTopUp'

export interface PendingTopUp {
  /** The intent id. */
  id: string
  /** The wallet that pays. */
  address: string
  /** The transaction, once the wallet sent it. */
  signature: string | null
  /** When the intent expires (ISO time). */
  expiresAt: string
}

const isPendingTopUp = (value: unknown): value is PendingTopUp => {
  if (typeof value !== 'object' || value === null) return false
  const { id, address, signature, expiresAt } = value as Record<string, unknown>
  return (
    typeof id === 'string' &&
    typeof address === 'string' &&
    (typeof signature === 'string' || signature === null) &&
    typeof expiresAt === 'string'
  )
}

export function savePendingTopUp(pending: PendingTopUp, storage: Storage = sessionStorage) {
  storage.setItem(PENDING_TOP_UP_KEY, JSON.stringify(pending))
}

/** Forgets the pending top-up, only if it is still the one with this intent id. */
export function clearPendingTopUp(id: string, storage: Storage = sessionStorage) {
  if (readStored(storage)?.id === id) storage.removeItem(PENDING_TOP_UP_KEY)
}

function readStored(storage: Storage): PendingTopUp | null {
  try {
    const value: unknown = JSON.parse(storage.getItem(PENDING_TOP_UP_KEY) ?? 'null')
    return isPendingTopUp(value) ? value : null
  } catch {
    return null
  }
}

/**
 * The stored top-up that `address` can still report: sent (it has a signature) and not expired. A stored entry that
 * can never be reported (malformed, expired, never sent) is forgotten; one of another wallet is left alone.
 */
export function takeReportableTopUp(
  address: string,
  now = Date.now(),
  storage: Storage = sessionStorage,
): (PendingTopUp & { signature: string }) | null {
  const raw = storage.getItem(PENDING_TOP_UP_KEY)
  if (raw === null) return null
  const pending = readStored(storage)
  if (pending?.address !== address && pending !== null) return null
  const expiry = pending ? Date.parse(pending.expiresAt) : Number.NaN
  if (!pending || pending.signature === null || !(expiry > now)) {
    storage.removeItem(PENDING_TOP_UP_KEY)
    return null
  }
  return { ...pending, signature: pending.signature }
}
