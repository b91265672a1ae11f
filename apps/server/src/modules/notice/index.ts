// The public entry of modules/notice: other modules import only what is exported here (docs/architecture.md).
export { seedNotices } from './seed.ts'
