// The public entry of modules/auth: other modules import only what is exported here (docs/architecture.md).
export { hashToken, isWalletAddress, newToken } from './crypto.ts'
export { issueNonce, type LoginSettings, purgeExpiredNonces, verifySignIn } from './service.ts'
export { type SessionCache, type SessionUser, sessionUser } from './session.ts'
