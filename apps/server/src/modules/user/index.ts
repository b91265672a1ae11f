// The public entry of modules/user: other modules import only what is exported here (docs/architecture.md).
export { findUserByAddress, toUser, userQuery } from './queries.ts'
