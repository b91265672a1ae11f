import { describe, expect, it } from 'vitest'
import { bookRows } from './book.ts'

const level = (price: string, amount: string) => ({ price, amount, orders: 1 })

describe('bookRows', () => {
  it('puts the asks highest first above the bids best first, with cumulative depth on one scale', () => {
    const { asks, bids } = bookRows(
      [level('510000', '100'), level('520000', '300')],
      [level('500000', '200'), level('490000', '600')],
    )
    expect(asks.map((row) => [row.price, row.cumulative, row.share])).toEqual([
      ['520000', 400n, 50],
      ['510000', 100n, 12],
    ])
    expect(bids.map((row) => [row.price, row.cumulative, row.share])).toEqual([
      ['500000', 200n, 25],
      ['490000', 800n, 100],
    ])
  })

  it('handles an empty book and one empty side', () => {
    expect(bookRows([], [])).toEqual({ asks: [], bids: [] })
    const { asks, bids } = bookRows([level('510000', '5')], [])
    expect(asks).toEqual([{ price: '510000', amount: '5', orders: 1, cumulative: 5n, share: 100 }])
    expect(bids).toEqual([])
  })

  it('stays exact beyond 2^53', () => {
    const { bids } = bookRows([], [level('1', '9007199254740993'), level('1', '9007199254740993')])
    expect(bids.map((row) => row.cumulative)).toEqual([9_007_199_254_740_993n, 18_014_398_509_481_986n])
    expect(bids.map((row) => row.share)).toEqual([50, 100])
  })
})
