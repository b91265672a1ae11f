// The public entry of modules/team: other modules import only what is exported here (docs/architecture.md).
export { bindMember, smallMarketFuel, smallMarketFuelSql, usdtDecimals } from './service.ts'
