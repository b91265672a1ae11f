import type { IntentPurpose } from '@solpledge/contract/client'
import { useMemo } from 'react'
import { createStore } from '../store.ts'

/**
 * The on-chain payments in flight (top-up, stake, node purchase), kept in sessionStorage until the server has their
 * transaction so that a reload or a closed tab can still report them. Losing one loses nothing: the server's watcher
 * finds payments by their reference key too.
 */
export const PENDING_PAYMENTS_KEY = 'solpledge.pendingPayments'

const PURPOSES: readonly string[] = ['recharge', 'stake', 'node'] satisfies IntentPurpose[]

export interface PendingPayment {
  /** The intent id. */
  id: string
  purpose: IntentPurpose
  /** The wallet that pays. */
  address: string
  /** The transaction, once the wallet sent it. */
  signature: string | null
  /** When the intent expires (ISO time). */
  expiresAt: string
}

export type ReportablePayment = PendingPayment & { signature: string }

const isPendingPayment = (value: unknown): value is PendingPayment => {
  if (typeof value !== 'object' || value === null) return false
  const { id, purpose, address, signature, expiresAt } = value as Record<string, unknown>
  return (
    typeof id === 'string' &&
    typeof purpose === 'string' &&
    PURPOSES.includes(purpose) &&
    typeof address === 'string' &&
    (typeof signature === 'string' || signature === null) &&
    typeof expiresAt === 'string'
  )
}

/** The stored entries that are well formed; anything else in the store is dropped on the next write. */
function readStored(storage: Storage): PendingPayment[] {
  try {
    const value: unknown = JSON.parse(storage.getItem(PENDING_PAYMENTS_KEY) ?? '[]')
    return Array.isArray(value) ? value.filter(isPendingPayment) : []
  } catch {
    return []
  }
}

/** Counts the writes of the store, so screens that show the payments follow them. */
const writes = createStore(0)

function writeStored(payments: readonly PendingPayment[], storage: Storage) {
  if (payments.length === 0) storage.removeItem(PENDING_PAYMENTS_KEY)
  else storage.setItem(PENDING_PAYMENTS_KEY, JSON.stringify(payments))
  writes.set(writes.get() + 1)
}

/** The stored payments, as they change. */
export function usePendingPayments(storage: Storage = sessionStorage): readonly PendingPayment[] {
  const version = writes.use()
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` says when the storage changed
  return useMemo(() => readStored(storage), [version, storage])
}

/** Stores a payment, replacing the one with the same intent id. */
export function savePendingPayment(pending: PendingPayment, storage: Storage = sessionStorage) {
  writeStored([...readStored(storage).filter((stored) => stored.id !== pending.id), pending], storage)
}

/** Forgets the payment of this intent id, if it is stored. */
export function clearPendingPayment(id: string, storage: Storage = sessionStorage) {
  const stored = readStored(storage)
  const kept = stored.filter((payment) => payment.id !== id)
  if (kept.length !== stored.length) writeStored(kept, storage)
}

/**
 * The stored payments that `address` can still report: sent (they have a signature) and not expired. Stored entries
 * that can never be reported (malformed, expired, never sent) are forgotten; those of another wallet are left alone.
 */
export function takeReportablePayments(
  address: string,
  now = Date.now(),
  storage: Storage = sessionStorage,
): ReportablePayment[] {
  if (storage.getItem(PENDING_PAYMENTS_KEY) === null) return []
  const reportable = (payment: PendingPayment): payment is ReportablePayment =>
    payment.signature !== null && Date.parse(payment.expiresAt) > now
  const kept = readStored(storage).filter((payment) => payment.address !== address || reportable(payment))
  writeStored(kept, storage)
  return kept.filter((payment): payment is ReportablePayment => payment.address === address && reportable(payment))
}
