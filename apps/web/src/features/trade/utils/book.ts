import type { BookLevel } from '@solpledge/contract/client'

/** A level of the book as shown: its cumulative amount from the best price and the depth bar's width (0 … 100). */
export interface BookRow extends BookLevel {
  cumulative: bigint
  share: number
}

function cumulate(levels: readonly BookLevel[]) {
  let cumulative = 0n
  return levels.map((level) => {
    cumulative += BigInt(level.amount)
    return { ...level, cumulative }
  })
}

/**
 * Both sides of the book (each best first, as the API sends them) laid out top to bottom: asks from the highest down
 * to the best ask, then bids from the best bid down. Depth bars share one scale: the deeper side's whole depth is 100.
 */
export function bookRows(asks: readonly BookLevel[], bids: readonly BookLevel[]) {
  const a = cumulate(asks)
  const b = cumulate(bids)
  const deepest = [a.at(-1)?.cumulative ?? 0n, b.at(-1)?.cumulative ?? 0n].reduce((x, y) => (x > y ? x : y))
  const withShare = (row: Omit<BookRow, 'share'>): BookRow => ({
    ...row,
    share: deepest === 0n ? 0 : Number((row.cumulative * 100n) / deepest),
  })
  return { asks: a.map(withShare).reverse(), bids: b.map(withShare) }
}
