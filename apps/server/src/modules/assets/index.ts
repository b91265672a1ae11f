// The public entry of modules/assets: other modules import only what is exported here (docs/architecture.md).
export { platformMints, seedAssets } from './seed.ts'
export { type AssetRow, holdingsOf, listAssets, moneyLog, requireAsset, reserves } from './service.ts'
