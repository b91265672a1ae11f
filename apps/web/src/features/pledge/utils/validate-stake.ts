import type { PledgeConfig } from '@solpledge/contract/client'
import { type AmountCheck, checkTypedAmount, refusalAmount, refuseAmount } from '@/lib/amount-check.ts'

/**
 * Checks a typed stake amount (docs/product.md#staking) in the order the user should hear it: an amount of {product}
 * ('Please enter the amount of {product}'), well formed, at least the minimum, at most what the chosen way of paying
 * can spend (`spendable`: the available balance, or the wallet's tokens when paying on chain; not checked while
 * unknown). Resolves the amount in base units.
 */
export function validateStake(
  text: string,
  config: Pick<PledgeConfig, 'symbol' | 'decimals' | 'min_amount'>,
  spendable: bigint | undefined,
): AmountCheck {
  const check = checkTypedAmount(text, config.decimals, 'pledge.enterAmount', { product: config.symbol })
  if (!check.ok) return check
  const min = BigInt(config.min_amount)
  if (check.value < min)
    return refuseAmount('pledge.belowMinimum', { min: refusalAmount(min, config.decimals), unit: config.symbol })
  if (spendable !== undefined && check.value > spendable) return refuseAmount('pledge.exceedsBalance')
  return check
}
