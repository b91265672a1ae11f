// Home figures (docs/product.md#home): the {product} price and trading pair, and the user's power figures of today.
import { type api, type DataOf, formatAmount, tokenIcon } from '@solpledge/contract'
import type { Database } from '../../db/index.ts'
import { listAssets, requireAsset } from '../assets/index.ts'
import { QUOTE } from '../config/index.ts'
import { today } from '../pledge/index.ts'
import { usdtDecimals } from '../team/index.ts'
import { valuation } from '../trade/index.ts'

/**
 * `/home/index/price`: the valuation price (`source: 'trade'`; the operator's reference price while trading is thin,
 * `source: 'reference'`), as USDT per whole token.
 */
export async function homePrice(db: Database, symbol: string): Promise<DataOf<typeof api.homePrice>> {
  const [{ price, source }, asset, decimals] = await Promise.all([
    valuation(db, symbol),
    requireAsset(db, symbol),
    usdtDecimals(db),
  ])
  return {
    price: formatAmount(price, decimals),
    pair: `${asset.symbol}/${QUOTE}`,
    symbol: asset.symbol,
    quote: QUOTE,
    source,
  }
}

/** `/invest/Home/index`: the price with today's figures of the staking module (pledge `today`, not recomputed here). */
export async function homeIndex(db: Database, symbol: string, userId: string): Promise<DataOf<typeof api.homeIndex>> {
  const [price, figures, decimals] = await Promise.all([homePrice(db, symbol), today(db, userId), usdtDecimals(db)])
  return {
    price: price.price,
    pair: price.pair,
    decimals,
    day: figures.day,
    recommended_power: figures.recommended_power,
    direct_new_power: figures.direct_new_power,
    team_power: figures.team_power,
    personal_power: figures.personal_power,
  }
}

/** `/invest/Home/getTokens`: the platform's tokens (the assets table) in display order, each with its shipped icon. */
export async function homeTokens(db: Database): Promise<DataOf<typeof api.homeTokens>> {
  const assets = await listAssets(db)
  return {
    list: assets.map((a) => ({ symbol: a.symbol, mint: a.mint, decimals: a.decimals, icon: tokenIcon(a.symbol) })),
  }
}
