// The public entry of modules/pledge: other modules import only what is exported here (docs/architecture.md).
export { minerList, outputRecords, positionList, today } from './service.ts'
