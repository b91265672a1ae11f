// The public entry of modules/ledger: other modules import only what is exported here (docs/architecture.md).
export { type AccountSpec, accountIds, accountKey, creditUsers, lockAccounts, transferMany } from './bulk.ts'
export {
  type BalancedEntry,
  balances,
  fullStatement,
  statement,
  systemAccount,
  totals,
  transfer,
  userAccount,
} from './service.ts'
