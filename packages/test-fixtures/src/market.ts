import type { MarketInfo } from '@solpledge/contract'
import { PLG } from './amounts.ts'

/**
 * The PLG/USDT market of a new database with the demo configuration, before any trade: prices on 0.0001 USDT, amounts
 * on 0.01 PLG, from 1 to 10 000 000 PLG, a 0.1 % fee, priced at the reference price of 0.5 USDT.
 */
export const NEW_MARKET: MarketInfo = {
  pair: 'PLG/USDT',
  symbol: 'PLG',
  quote: 'USDT',
  base_decimals: 9,
  quote_decimals: 6,
  tick_size: '100',
  lot_size: '10000000',
  min_amount: String(PLG),
  max_amount: String(10_000_000n * PLG),
  fee_bps: 10,
  last_price: null,
  price: '500000',
  price_source: 'reference',
  open_24h: null,
  high_24h: null,
  low_24h: null,
  change_24h_bps: 0,
  volume_24h: '0',
  quote_volume_24h: '0',
}
