// The public entry of modules/trade: other modules import only what is exported here (docs/architecture.md).
export type { TradeMarket } from './market.ts'
export { freshValuation, priceHistory, recordPriceDay, valuation } from './price.ts'
export { marketInfo, myOrders } from './service.ts'
