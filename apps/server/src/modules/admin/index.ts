// The public entry of modules/admin: other modules import only what is exported here (docs/architecture.md).
export { syncConfiguredAdmins } from './admins.ts'
export { applyDueChanges } from './changes.ts'
export { jobStatus } from './ops.ts'
export { type AdminCaller, adminOf } from './session.ts'
