import type { AssetBalance } from '@solpledge/contract'

/** Basis points as a percentage for people: 500 → '5%', 1250 → '12.5%', 5 → '0.05%'. */
export function bpsToPercent(bps: number) {
  const sign = bps < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(bps))
  const fraction = String(abs % 100)
    .padStart(2, '0')
    .replace(/0+$/, '')
  return `${sign}${Math.floor(abs / 100)}${fraction ? `.${fraction}` : ''}%`
}

/** Node levels with a translated name; any other code is shown as it is. */
export const KNOWN_LEVELS = ['junior', 'senior', 'super'] as const
export type KnownLevel = (typeof KNOWN_LEVELS)[number]

export const knownLevel = (code: string): KnownLevel | null =>
  (KNOWN_LEVELS as readonly string[]).includes(code) ? (code as KnownLevel) : null

/** Decimals of the dividend token when the wallet does not list it. */
export const DEFAULT_PRODUCT_DECIMALS = 9
/** Decimals of USDT, the currency nodes are priced in. */
export const USDT_DECIMALS = 6

/** The wallet entry of `coin` (matched by coin or symbol), if the user's wallet lists it. */
export const findAsset = (assets: readonly AssetBalance[] | undefined, coin: string) =>
  assets?.find((asset) => asset.coin === coin || asset.symbol === coin)
