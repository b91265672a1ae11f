import type { BookLevel } from '@solpledge/contract/client'
import { type AmountCheck, checkTypedAmount, refuseAmount } from '@/lib/amount-check.ts'

/** Slippage tolerances offered, basis points: 0.5 %, 1 %, 3 %. */
export const SLIPPAGE_OPTIONS = [50, 100, 300] as const
export type Slippage = (typeof SLIPPAGE_OPTIONS)[number]

/** A price impact from which the quote is shown as a warning: 5 %. */
export const HIGH_IMPACT_BPS = 500

/**
 * Checks a typed swap amount: an amount ('Please enter the amount'), well formed in the asset given, at most its
 * available balance (not checked while unknown). Resolves base units.
 */
export function validateSwap(text: string, decimals: number, available: bigint | undefined): AmountCheck {
  const check = checkTypedAmount(text, decimals, 'trade.enterAmount')
  if (check.ok && available !== undefined && check.value > available) return refuseAmount('common.insufficientBalance')
  return check
}

/** What the book shown can fill of a swap: `amount` in the asset given; `more` when the book holds levels beyond those. */
export interface SwapDepth {
  amount: bigint
  more: boolean
}

/**
 * What the levels of the book shown (best first, `shown` levels at most) can fill of a swap from the {product}
 * (`base`: the bids take {product}) or from USDT (`quote`: the asks take their USDT value, rounded down). Null when that
 * side is empty: nothing can be swapped.
 */
export function swapDepth(
  book: { bids: readonly BookLevel[]; asks: readonly BookLevel[] },
  from: 'base' | 'quote',
  baseDecimals: number,
  shown: number,
): SwapDepth | null {
  const levels = from === 'base' ? book.bids : book.asks
  if (levels.length === 0) return null
  const one = 10n ** BigInt(baseDecimals)
  const amount =
    from === 'base'
      ? levels.reduce((sum, level) => sum + BigInt(level.amount), 0n)
      : levels.reduce((sum, level) => sum + BigInt(level.amount) * BigInt(level.price), 0n) / one
  return { amount, more: levels.length >= shown }
}
