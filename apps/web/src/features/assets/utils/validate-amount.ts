import { parseAmount } from '@solpledge/contract'
import type { Notice } from './notice.ts'

export type AmountCheck = { ok: true; value: bigint } | { ok: false; notice: Notice }

/**
 * Checks a typed top-up amount (SPEC §5) and says what is wrong. `walletBalance` is the wallet's balance of the asset
 * in base units: the amount may not exceed it. It is not checked while unknown (undefined) or when the wallet has no
 * token account (null): the top-up itself then reads the chain and reports that.
 */
export function validateTopUpAmount(text: string, decimals: number, walletBalance?: bigint | null): AmountCheck {
  const parsed = parseAmount(text, decimals)
  if (!parsed.ok) {
    if (parsed.error === 'empty') return { ok: false, notice: { key: 'assets.enterRechargeAmount' } }
    if (parsed.error === 'decimals')
      return { ok: false, notice: { key: 'assets.amountDecimals', params: { decimals } } }
    return { ok: false, notice: { key: 'assets.amountInvalid' } }
  }
  if (parsed.value === 0n) return { ok: false, notice: { key: 'assets.amountInvalid' } }
  if (walletBalance != null && parsed.value > walletBalance)
    return { ok: false, notice: { key: 'assets.exceedsWalletBalance' } }
  return parsed
}
