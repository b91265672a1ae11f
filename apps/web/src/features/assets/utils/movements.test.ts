import type { LedgerEntry, Withdrawal } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import { movementsOf, withdrawalAmount, withdrawalState } from './movements.ts'

let next = 0
const entry = (
  type: LedgerEntry['type'],
  amount: string,
  account: LedgerEntry['account'],
  reference: string | null = null,
  id = String(++next),
): LedgerEntry => ({
  id,
  coin: 'USDT',
  type,
  amount,
  account,
  reference,
  day: null,
  created_at: `2026-11-27T10:00:${String(next).padStart(2, '0')}.000Z`,
})

// A withdrawal of 100.1 USDT (fee 1) as the ledger pages it, newest first: the fee and the payout once confirmed,
// then the request (available → locked, two entries of one transfer); a deposit before it.
const fee = entry('withdraw_fee', '-1000000', 'locked', 'withdraw:7')
const pay = entry('withdraw_pay', '-99100000', 'locked', 'withdraw:7')
const lockLocked = entry('withdraw_lock', '100100000', 'locked', 'withdraw:7', '50')
const lockAvailable = entry('withdraw_lock', '-100100000', 'available', 'withdraw:7', '50')
const deposit = entry('deposit', '200000000', 'available')
const page = [fee, pay, lockLocked, lockAvailable, deposit]

const withdrawal = (status: Withdrawal['status']): Withdrawal => ({
  id: '7',
  coin: 'USDT',
  decimals: 6,
  amount: '100100000',
  fee: '1000000',
  receive: '99100000',
  address: 'wallet',
  status,
  signature: status === 'confirmed' ? 'sig' : null,
  reason: null,
  created_at: lockAvailable.created_at,
  updated_at: fee.created_at,
})

describe('movementsOf', () => {
  it("makes one row of a withdrawal's three transfers, and one per other transfer", () => {
    const rows = movementsOf(page)
    expect(rows.map((row) => row.kind)).toEqual(['withdrawal', 'transfer'])
    const [row, other] = rows
    if (row?.kind !== 'withdrawal' || other?.kind !== 'transfer') throw new Error('unexpected rows')
    expect(row.id).toBe('7')
    // Oldest first, and dated when it was requested.
    expect(row.legs).toEqual([lockAvailable, lockLocked, pay, fee])
    expect(row.created_at).toBe(lockAvailable.created_at)
    expect(other.legs).toEqual([deposit])
  })

  it("keeps a transfer's two entries together, available first", () => {
    const unlock = entry('trade_unlock', '5', 'available', 'order:1', '90')
    const relock = entry('trade_unlock', '-5', 'locked', 'order:1', '90')
    const [row] = movementsOf([relock, unlock])
    expect(row).toMatchObject({ kind: 'transfer', type: 'trade_unlock', legs: [unlock, relock] })
  })
})

describe('withdrawal rows', () => {
  it("take the withdrawal's own status and amount when it is loaded", () => {
    expect(withdrawalState(page.slice(0, 4), withdrawal('review'))).toBe('review')
    expect(withdrawalState(page.slice(0, 4), withdrawal('rejected'))).toBe('rejected')
    expect(withdrawalAmount([fee], withdrawal('confirmed'))).toBe(-100_100_000n)
  })

  it('tell the state and amount from the ledger otherwise', () => {
    expect(withdrawalState([lockAvailable, lockLocked], undefined)).toBe('requested')
    expect(withdrawalState([lockAvailable, lockLocked, pay, fee], undefined)).toBe('confirmed')
    const refund = entry('withdraw_refund', '100100000', 'available', 'withdraw:7')
    expect(withdrawalState([lockAvailable, lockLocked, refund], undefined)).toBe('refunded')
    expect(withdrawalAmount([lockAvailable, lockLocked, pay, fee], undefined)).toBe(-100_100_000n)
    // Only the payout and the fee loaded so far (the request is on the next page).
    expect(withdrawalAmount([pay, fee], undefined)).toBe(-100_100_000n)
  })
})
