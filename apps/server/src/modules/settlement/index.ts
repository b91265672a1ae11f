// The public entry of modules/settlement: other modules import only what is exported here (docs/architecture.md).
export { crashHook, firstUnsettledDay, type SettleOptions, settleDue } from './service.ts'
