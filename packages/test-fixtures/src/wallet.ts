import type { AssetBalance } from '@solpledge/contract'
import { PLG, USDT } from './amounts.ts'

/** One whole coin in base units and the decimals of each asset the seed sets up. */
const ASSETS = { PLG: { decimals: 9, whole: PLG }, USDT: { decimals: 6, whole: USDT } } as const

/**
 * A line of the user's wallet (the answer of /user/user/wallet): `available` base units of the asset, nothing locked,
 * top-up and withdrawals open; withdrawals need at least `rules.minimum` and cost `rules.fee` (base units, 0 unless
 * given).
 */
export function walletAsset(
  coin: keyof typeof ASSETS,
  available: bigint,
  rules: { minimum?: bigint; fee?: bigint } = {},
): AssetBalance {
  return {
    coin,
    symbol: coin,
    decimals: ASSETS[coin].decimals,
    mint: null,
    balance: String(available),
    available: String(available),
    locked: '0',
    is_user_recharge: 1,
    is_withdraw: 1,
    min_atm_money: String(rules.minimum ?? 0n),
    fee: String(rules.fee ?? 0n),
    usdt_value: null,
  }
}
