import { beforeEach, describe, expect, it } from 'vitest'
import { MemoryStorage } from '../memory-storage.ts'
import {
  clearPendingPayment,
  PENDING_PAYMENTS_KEY,
  type PendingPayment,
  savePendingPayment,
  takeReportablePayments,
} from './pending-payment.ts'

const now = Date.parse('2030-01-01T00:00:00.000Z')
const sent: PendingPayment = {
  id: '7',
  purpose: 'recharge',
  address: 'Alice',
  signature: 'sig',
  expiresAt: '2030-01-01T00:15:00.000Z',
}
const stored = (storage: MemoryStorage) => JSON.parse(storage.getItem(PENDING_PAYMENTS_KEY) ?? 'null')

describe('pending payments', () => {
  let storage: MemoryStorage
  beforeEach(() => {
    storage = new MemoryStorage()
  })

  it('hands a sent, unexpired payment to its wallet and keeps it until cleared', () => {
    savePendingPayment(sent, storage)
    expect(takeReportablePayments('Alice', now, storage)).toEqual([sent])
    expect(takeReportablePayments('Alice', now, storage)).toEqual([sent])
    clearPendingPayment('7', storage)
    expect(storage.getItem(PENDING_PAYMENTS_KEY)).toBeNull()
  })

  it('keeps payments of every purpose side by side, one entry per intent', () => {
    const stake: PendingPayment = { ...sent, id: '8', purpose: 'stake' }
    const node: PendingPayment = { ...sent, id: '9', purpose: 'node', signature: null }
    savePendingPayment(sent, storage)
    savePendingPayment(stake, storage)
    savePendingPayment(node, storage)
    savePendingPayment({ ...node, signature: 'sig9' }, storage)
    expect(takeReportablePayments('Alice', now, storage)).toEqual([sent, stake, { ...node, signature: 'sig9' }])
    clearPendingPayment('8', storage)
    expect(takeReportablePayments('Alice', now, storage).map((payment) => payment.id)).toEqual(['7', '9'])
  })

  it('leaves another wallet’s payments alone', () => {
    savePendingPayment(sent, storage)
    savePendingPayment({ ...sent, id: '8', address: 'Bob', signature: null }, storage)
    expect(takeReportablePayments('Carol', now, storage)).toEqual([])
    expect(stored(storage)).toHaveLength(2)
  })

  it('forgets what can never be reported: not sent, expired, malformed', () => {
    for (const entry of [
      { ...sent, signature: null },
      { ...sent, expiresAt: '2029-12-31T23:59:59.000Z' },
      { ...sent, expiresAt: 'soon' },
      { ...sent, purpose: 'gift' },
      { id: 7 },
    ]) {
      storage.setItem(PENDING_PAYMENTS_KEY, JSON.stringify([entry]))
      expect(takeReportablePayments('Alice', now, storage)).toEqual([])
      expect(storage.getItem(PENDING_PAYMENTS_KEY)).toBeNull()
    }
    for (const garbage of ['{not json', '{"id":"7"}']) {
      storage.setItem(PENDING_PAYMENTS_KEY, garbage)
      expect(takeReportablePayments('Alice', now, storage)).toEqual([])
      expect(storage.getItem(PENDING_PAYMENTS_KEY)).toBeNull()
    }
  })

  it('clears only the payment it was asked to', () => {
    savePendingPayment({ ...sent, id: '8' }, storage)
    clearPendingPayment('7', storage)
    expect(takeReportablePayments('Alice', now, storage).map((payment) => payment.id)).toEqual(['8'])
  })
})
