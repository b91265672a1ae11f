import type { Database } from '../../db/index.ts'

/** The price of the market's last trade (USDT base units per whole token), or null before the first trade. */
export async function lastTradePrice(db: Database, symbol: string): Promise<bigint | null> {
  const row = await db.selectFrom('trade_markets').select('last_price').where('symbol', '=', symbol).executeTakeFirst()
  return row?.last_price == null ? null : BigInt(row.last_price)
}
