// The public entry of modules/live: other modules import only what is exported here (docs/architecture.md).
export { type OutboxTopic, type Publication, publish, publishMany, purgeOutbox } from './publish.ts'
