// The public entry of modules/team: other modules import only what is exported here (docs/architecture.md).
export { bindMember, usdtDecimals } from './service.ts'
