import type { Withdrawal } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import { anyStatusChanged, statusById, withdrawalsPollInterval } from './get-withdrawals.ts'
import { WITHDRAWAL_POLL_MS } from './keys.ts'

const withdrawal = (id: string, status: Withdrawal['status']): Withdrawal => ({
  id,
  coin: 'USDT',
  decimals: 6,
  amount: '10000000',
  fee: '1000000',
  receive: '9000000',
  address: 'owner',
  status,
  signature: null,
  reason: null,
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
})
const pages = (...lists: Withdrawal[][]) => ({
  pages: lists.map((list, index) => ({ list, total: 99, page: index + 1, limit: 20 })),
  pageParams: lists.map((_, index) => index + 1),
})

describe('withdrawalsPollInterval', () => {
  it.each(['review', 'pending', 'sent'] as const)('polls while one is %s, on any loaded page', (status) => {
    expect(withdrawalsPollInterval(pages([withdrawal('1', status)]))).toBe(WITHDRAWAL_POLL_MS)
    expect(withdrawalsPollInterval(pages([withdrawal('3', 'confirmed')], [withdrawal('1', status)]))).toBe(
      WITHDRAWAL_POLL_MS,
    )
  })

  it('stops once every withdrawal is settled, or there are none', () => {
    const settled = [withdrawal('3', 'confirmed'), withdrawal('2', 'failed'), withdrawal('1', 'rejected')]
    expect(withdrawalsPollInterval(pages(settled))).toBe(false)
    expect(withdrawalsPollInterval(pages([]))).toBe(false)
    expect(withdrawalsPollInterval(undefined)).toBe(false)
  })
})

describe('anyStatusChanged', () => {
  const before = statusById([withdrawal('2', 'sent'), withdrawal('1', 'confirmed')])

  it('notices a withdrawal that moved on', () => {
    expect(anyStatusChanged(before, statusById([withdrawal('2', 'confirmed'), withdrawal('1', 'confirmed')]))).toBe(
      true,
    )
  })

  it('ignores new withdrawals and unchanged ones', () => {
    const after = statusById([withdrawal('3', 'review'), withdrawal('2', 'sent'), withdrawal('1', 'confirmed')])
    expect(anyStatusChanged(before, after)).toBe(false)
  })
})
