// Home figures (SPEC home data): the {product} price and trading pair, and the user's power figures of today.
import { type api, type DataOf, formatAmount } from '@solpledge/contract'
import type { Database } from '../../db/index.ts'
import { pledgeConfig } from '../config/service.ts'
import { today } from '../pledge/service.ts'
import { usdtDecimals } from '../team/service.ts'

const QUOTE = 'USDT'

/**
 * `/home/index/price`: the price staking uses (pledgeConfig: the operator's reference price until quick trade sets a
 * last trade price), as USDT per whole token.
 */
export async function homePrice(db: Database, symbol: string): Promise<DataOf<typeof api.homePrice>> {
  const [config, decimals] = await Promise.all([pledgeConfig(db, symbol), usdtDecimals(db)])
  return {
    price: formatAmount(config.price, decimals),
    pair: `${config.symbol}/${QUOTE}`,
    symbol: config.symbol,
    quote: QUOTE,
    source: 'reference',
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
