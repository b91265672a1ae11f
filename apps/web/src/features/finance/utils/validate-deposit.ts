import { type AmountCheck, checkTypedAmount, refuseAmount } from '@/lib/amount-check.ts'
import { applyBps } from '@/lib/bps.ts'

/**
 * Checks a typed deposit amount: an amount ('Please enter the deposit amount'), well formed in the product's coin, at
 * most the available balance (not checked while unknown). Resolves the amount in base units.
 */
export function validateDeposit(text: string, decimals: number, available: bigint | undefined): AmountCheck {
  const check = checkTypedAmount(text, decimals, 'finance.enterAmount')
  if (check.ok && available !== undefined && check.value > available) return refuseAmount('common.insufficientBalance')
  return check
}

/**
 * What a deposit of `amount` base units would bring, computed as the server computes it (rounded down): its total
 * output over the period and its power, both in the deposit's coin base units.
 */
export const depositEstimate = (amount: bigint, product: { output_bps: number; power_bps: number }) => ({
  output: applyBps(amount, product.output_bps),
  power: applyBps(amount, product.power_bps),
})
