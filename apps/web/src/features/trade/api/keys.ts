import type { CandleInterval, TradeOrderStatus } from '@solpledge/contract/client'
import { domainKeys } from '@/lib/query-keys.ts'

/** How many orders the list loads at a time. */
export const ORDERS_PAGE_SIZE = 10

/** Query keys of the trade feature; what each action refreshes: INVALIDATES in query-keys.ts. */
export const tradeKeys = {
  market: (depth: number) => [...domainKeys.trade, 'market', depth] as const,
  chartInfo: [...domainKeys.trade, 'chart-info'] as const,
  candles: (interval: CandleInterval) => [...domainKeys.trade, 'candles', interval] as const,
  orders: (address: string, status: TradeOrderStatus) => [...domainKeys.trade, 'orders', address, status] as const,
  order: (address: string, id: string) => [...domainKeys.trade, 'order', address, id] as const,
  quote: (from: string, amount: string, slippageBps: number) =>
    [...domainKeys.trade, 'quote', from, amount, slippageBps] as const,
}
