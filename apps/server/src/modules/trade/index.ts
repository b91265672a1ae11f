// The public entry of modules/trade: other modules import only what is exported here (docs/architecture.md).
export { valuation } from './price.ts'
export { myOrders } from './service.ts'
