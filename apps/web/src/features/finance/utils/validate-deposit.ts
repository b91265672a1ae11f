import { type AmountCheck, checkTypedAmount, refuseAmount } from '@/lib/amount-check.ts'

/**
 * Checks a typed deposit amount: an amount ('Please enter the deposit amount'), well formed in the product's coin, at
 * most the available balance (not checked while unknown). Resolves the amount in base units.
 */
export function validateDeposit(text: string, decimals: number, available: bigint | undefined): AmountCheck {
  const check = checkTypedAmount(text, decimals, 'finance.enterAmount')
  if (check.ok && available !== undefined && check.value > available) return refuseAmount('common.insufficientBalance')
  return check
}
