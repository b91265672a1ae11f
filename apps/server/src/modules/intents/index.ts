// The public entry of modules/intents: other modules import only what is exported here (docs/architecture.md).
export { type PurposeHandler, registerPurpose } from './purposes.ts'
export { watchIntents } from './service.ts'
