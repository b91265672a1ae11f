import { beforeEach, describe, expect, it } from 'vitest'
import { MemoryStorage } from '../../../lib/memory-storage.ts'
import {
  clearPendingTopUp,
  PENDING_TOP_UP_KEY,
  type PendingTopUp,
  savePendingTopUp,
  takeReportableTopUp,
} from './pending-top-up.ts'

const now = Date.parse('2030-01-01T00:00:00.000Z')
const sent: PendingTopUp = { id: '7', address: 'Alice', signature: 'sig', expiresAt: '2030-01-01T00:15:00.000Z' }

describe('pending top-up', () => {
  let storage: MemoryStorage
  beforeEach(() => {
    storage = new MemoryStorage()
  })

  it('hands a sent, unexpired top-up to its wallet and keeps it until cleared', () => {
    savePendingTopUp(sent, storage)
    expect(takeReportableTopUp('Alice', now, storage)).toEqual(sent)
    expect(takeReportableTopUp('Alice', now, storage)).toEqual(sent)
    clearPendingTopUp('7', storage)
    expect(storage.getItem(PENDING_TOP_UP_KEY)).toBeNull()
  })

  it('leaves another wallet’s top-up alone', () => {
    savePendingTopUp(sent, storage)
    expect(takeReportableTopUp('Bob', now, storage)).toBeNull()
    expect(storage.getItem(PENDING_TOP_UP_KEY)).not.toBeNull()
  })

  it('forgets what can never be reported: not sent, expired, malformed', () => {
    for (const stored of [
      JSON.stringify({ ...sent, signature: null }),
      JSON.stringify({ ...sent, expiresAt: '2029-12-31T23:59:59.000Z' }),
      JSON.stringify({ ...sent, expiresAt: 'soon' }),
      JSON.stringify({ id: 7 }),
      '{not json',
    ]) {
      storage.setItem(PENDING_TOP_UP_KEY, stored)
      expect(takeReportableTopUp('Alice', now, storage)).toBeNull()
      expect(storage.getItem(PENDING_TOP_UP_KEY)).toBeNull()
    }
  })

  it('clears only the top-up it was asked to', () => {
    savePendingTopUp({ ...sent, id: '8' }, storage)
    clearPendingTopUp('7', storage)
    expect(takeReportableTopUp('Alice', now, storage)?.id).toBe('8')
  })
})
