import type { Withdrawal } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import { withWithdrawal } from './get-withdrawals.ts'

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

describe('withWithdrawal', () => {
  const event = (id: string, status: Withdrawal['status'], signature: string | null = null) => ({
    kind: 'withdrawal' as const,
    id,
    status,
    signature,
    reason: null,
    updated_at: '2030-01-01T00:01:00.000Z',
  })

  it('moves the loaded withdrawal to the status of the event, with its signature, on whatever page it is', () => {
    const data = pages([withdrawal('3', 'pending')], [withdrawal('2', 'sent'), withdrawal('1', 'confirmed')])
    const next = withWithdrawal(data, event('2', 'confirmed', 'sig2'))
    expect(next?.pages[1]?.list[0]).toEqual({
      ...withdrawal('2', 'confirmed'),
      signature: 'sig2',
      updated_at: '2030-01-01T00:01:00.000Z',
    })
    expect(next?.pages[0]).toEqual(data.pages[0])
    expect(next?.pages[1]?.list[1]).toEqual(data.pages[1]?.list[1])
  })

  it('is null for a withdrawal it has not loaded (the list is read again)', () => {
    expect(withWithdrawal(pages([withdrawal('1', 'sent')]), event('9', 'review'))).toBeNull()
  })
})
