// The public entry of modules/rank: other modules and the jobs import only what is exported here (docs/architecture.md).
export { refreshRankings } from './service.ts'
