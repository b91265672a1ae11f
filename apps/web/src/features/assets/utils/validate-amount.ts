import { type AssetBalance, parseAmount } from '@solpledge/contract/client'
import { type AmountCheck, checkTypedAmount, refusalAmount, refuseAmount as refuse } from '@/lib/amount-check.ts'

/**
 * Checks a typed top-up amount (docs/product.md#top-up) and says what is wrong. `walletBalance` is the wallet's balance
 * of the asset in base units: the amount may not exceed it. It is not checked while unknown (undefined) or when the
 * wallet has no token account (null): the top-up itself then reads the chain and reports that.
 */
export function validateTopUpAmount(text: string, decimals: number, walletBalance?: bigint | null): AmountCheck {
  const check = checkTypedAmount(text, decimals, 'assets.enterRechargeAmount')
  if (check.ok && walletBalance != null && check.value > walletBalance) return refuse('assets.exceedsWalletBalance')
  return check
}

/** What a withdrawal needs to know of the asset; amounts in base units. */
export type WithdrawLimits = Pick<
  AssetBalance,
  'decimals' | 'symbol' | 'is_withdraw' | 'min_atm_money' | 'fee' | 'available'
>

/**
 * Checks a typed withdrawal amount (docs/product.md#withdrawal) against the asset's rules, in the order the user should
 * hear them: the asset must allow withdrawal; an amount, well formed; at least the minimum; more than the fee (it is
 * taken from the amount); at most the available balance. Resolves the amount in base units, fee included.
 */
export function validateWithdrawAmount(text: string, asset: WithdrawLimits): AmountCheck {
  if (asset.is_withdraw !== 1) return refuse('assets.withdrawUnsupported')
  const check = checkTypedAmount(text, asset.decimals, 'assets.enterWithdrawAmount')
  if (!check.ok) return check
  const [min, fee] = [BigInt(asset.min_atm_money), BigInt(asset.fee)]
  const unit = asset.symbol
  if (check.value < min) return refuse('assets.withdrawBelowMinimum', { min: refusalAmount(min, asset.decimals), unit })
  if (check.value <= fee) return refuse('assets.withdrawFeeTooHigh', { fee: refusalAmount(fee, asset.decimals), unit })
  if (check.value > BigInt(asset.available)) return refuse('common.insufficientBalance')
  return check
}

/**
 * What arrives in the wallet for a typed withdrawal amount: the amount less the fee, never below 0; null while the
 * text is not an amount of the asset.
 */
export function withdrawReceive(text: string, asset: Pick<AssetBalance, 'decimals' | 'fee'>): bigint | null {
  const parsed = parseAmount(text, asset.decimals)
  if (!parsed.ok) return null
  const receive = parsed.value - BigInt(asset.fee)
  return receive > 0n ? receive : 0n
}
