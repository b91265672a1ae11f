// The public entry of modules/finance: other modules import only what is exported here (docs/architecture.md).
export { financeList } from './service.ts'
