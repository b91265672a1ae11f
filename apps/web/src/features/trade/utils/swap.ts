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
