// The public entry of modules/liabilities: other modules import only what is exported here (docs/architecture.md).
export { owedTotals } from './owed.ts'
export { liabilitiesJob, snapshotNow } from './publish.ts'
export { memoSigner } from './snapshot.ts'
export { solvency } from './solvency.ts'
