import type { LedgerEntry } from '@solpledge/contract/client'
import { describe, expect, it } from 'vitest'
import { flattenPages, nextPage } from './paging.ts'

const entry = (id: string): LedgerEntry => ({
  id,
  coin: 'USDT',
  type: 'deposit',
  amount: '1000000',
  account: 'available',
  reference: null,
  day: null,
  created_at: '2030-01-01T00:00:00.000Z',
})
const page = (number: number, ids: string[], total: number) => ({ list: ids.map(entry), total, page: number, limit: 2 })

describe('paging', () => {
  it('asks for the next page while entries remain', () => {
    expect(nextPage(page(1, ['5', '4'], 5))).toBe(2)
    expect(nextPage(page(2, ['3', '2'], 5))).toBe(3)
    expect(nextPage(page(3, ['1'], 5))).toBeUndefined()
    expect(nextPage(page(1, ['2', '1'], 2))).toBeUndefined()
    expect(nextPage(page(1, [], 0))).toBeUndefined()
  })

  it('stops on an empty page even if the total says more', () => {
    expect(nextPage(page(4, [], 9))).toBeUndefined()
  })

  it('shows an item once when a new one pushed it onto the next page', () => {
    const pages = [page(1, ['5', '4'], 5), page(2, ['4', '3'], 6)]
    expect(flattenPages(pages).map((e) => e.id)).toEqual(['5', '4', '3'])
  })
})
