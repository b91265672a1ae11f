// The public entry of modules/power: other modules import only what is exported here (docs/architecture.md).
export { addNewPower, ancestryOf, applyPower, updateAncestry } from './service.ts'
