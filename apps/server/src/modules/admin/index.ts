// The public entry of modules/admin: other modules import only what is exported here (docs/architecture.md).

export { type AdjustmentInput, proposeAdjustment } from './adjustments.ts'
export { syncConfiguredAdmins } from './admins.ts'
export { audit } from './audit.ts'
export { applyDueChanges } from './changes.ts'
export { checkTexts } from './content.ts'
export { jobStatus } from './ops.ts'
export { type AdminCaller, adminOf } from './session.ts'
