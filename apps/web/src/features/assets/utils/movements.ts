import type { LedgerEntry, LedgerType, Withdrawal } from '@solpledge/contract/client'

/**
 * One row of an asset's history as the user sees it. Most are one ledger transfer: its entries in the user's accounts
 * of this asset (a transfer between two of them, as an order's lock, has two). A withdrawal is one row whatever the
 * transfers it took (requested: available → locked; sent: the payout and the fee leave locked; or refunded), with its
 * state.
 */
export type Movement =
  | { kind: 'transfer'; key: string; type: LedgerType; day: string | null; created_at: string; legs: LedgerEntry[] }
  | {
      kind: 'withdrawal'
      key: string
      /** The withdrawal's id (its transfers' reference is `withdraw:<id>`). */
      id: string
      /** When it was requested (the earliest of its entries loaded). */
      created_at: string
      /** Its ledger entries, oldest first. */
      legs: LedgerEntry[]
    }

const WITHDRAWAL_REFERENCE = /^withdraw:(\d+)$/

/** Entries (newest first, as the API pages them) grouped into rows: by transfer, and every withdrawal's into one. */
export function movementsOf(entries: readonly LedgerEntry[]): Movement[] {
  const movements: Movement[] = []
  const withdrawals = new Map<string, Extract<Movement, { kind: 'withdrawal' }>>()
  for (const entry of entries) {
    const id = entry.reference?.match(WITHDRAWAL_REFERENCE)?.[1]
    if (id) {
      const known = withdrawals.get(id)
      if (known) {
        known.legs.unshift(entry)
        known.created_at = entry.created_at
      } else {
        const row = {
          kind: 'withdrawal' as const,
          key: `withdraw:${id}`,
          id,
          created_at: entry.created_at,
          legs: [entry],
        }
        withdrawals.set(id, row)
        movements.push(row)
      }
      continue
    }
    const last = movements.at(-1)
    if (last?.kind === 'transfer' && last.key === entry.id) last.legs.push(entry)
    else
      movements.push({
        kind: 'transfer',
        key: entry.id,
        type: entry.type,
        day: entry.day,
        created_at: entry.created_at,
        legs: [entry],
      })
  }
  for (const movement of movements)
    if (movement.kind === 'transfer')
      movement.legs.sort((a, b) => Number(a.account === 'locked') - Number(b.account === 'locked'))
  return movements
}

/** A withdrawal's state as its row says it: requested → under review → queued → sent → confirmed, or refunded. */
export type WithdrawalState = Withdrawal['status'] | 'requested' | 'refunded'

/** How a withdrawal's state reads at a glance: on its way, done, or refunded (its badge and receipt). */
export const withdrawalTone: Record<WithdrawalState, 'ok' | 'wait' | 'bad'> = {
  requested: 'wait',
  review: 'wait',
  pending: 'wait',
  sent: 'wait',
  confirmed: 'ok',
  failed: 'bad',
  rejected: 'bad',
  refunded: 'bad',
}

/**
 * The state of a withdrawal row: the withdrawal's own status when it is loaded, else what its ledger entries tell
 * (paid: confirmed; refunded; else requested).
 */
export function withdrawalState(legs: readonly LedgerEntry[], withdrawal: Withdrawal | undefined): WithdrawalState {
  if (withdrawal) return withdrawal.status
  if (legs.some((leg) => leg.type === 'withdraw_refund')) return 'refunded'
  if (legs.some((leg) => leg.type === 'withdraw_pay')) return 'confirmed'
  return 'requested'
}

/**
 * What a withdrawal took from the available balance, as a signed amount: the withdrawal's amount when it is loaded,
 * else the request's entry; what its loaded entries moved when neither is there.
 */
export function withdrawalAmount(legs: readonly LedgerEntry[], withdrawal: Withdrawal | undefined): bigint {
  if (withdrawal) return -BigInt(withdrawal.amount)
  const request = legs.find((leg) => leg.type === 'withdraw_lock' && leg.account === 'available')
  if (request) return BigInt(request.amount)
  return legs.reduce((sum, leg) => sum + BigInt(leg.amount), 0n)
}
