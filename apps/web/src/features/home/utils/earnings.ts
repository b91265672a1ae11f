import { type AssetBalance, parseAmount, toUsdt } from '@solpledge/contract/client'
import { USDT_DECIMALS } from '@/lib/format.ts'

/** A day's credit in one coin, as the today route lists them. */
interface Credit {
  coin: string
  decimals: number
  amount: string
}

/** The product's price as the home price route sends it: a decimal string of USDT per whole token, and its symbol. */
interface Price {
  price: string
  symbol: string
}

/**
 * What a day's credits are worth in USDT base units: USDT at par, the platform token at the valuation price (rounded
 * down, as the wallet values balances); null while the price is unknown or for a coin without a price.
 */
export function creditsInUsdt(credits: readonly Credit[], price: Price | undefined): bigint | null {
  const perToken = price ? parseAmount(price.price, USDT_DECIMALS) : null
  let total = 0n
  for (const credit of credits) {
    const amount = BigInt(credit.amount)
    if (credit.coin === 'USDT') total += amount
    else if (perToken?.ok && credit.coin === price?.symbol) total += toUsdt(amount, credit.decimals, perToken.value)
    else return null
  }
  return total
}

/** The user's balances together in USDT base units (each asset's `usdt_value`; an asset without a price counts 0). */
export const balanceInUsdt = (assets: readonly AssetBalance[]) =>
  assets.reduce((sum, asset) => sum + (asset.usdt_value === null ? 0n : BigInt(asset.usdt_value)), 0n)
