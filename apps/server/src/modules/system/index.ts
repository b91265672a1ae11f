// The public entry of modules/system: other modules import only what is exported here (docs/architecture.md).
export { markOnce } from './fixed-settings.ts'
export { hotWalletState } from './health.ts'
