// The public entry of modules/settlement: other modules import only what is exported here (docs/architecture.md).
export { firstUnsettledDay } from './service.ts'
