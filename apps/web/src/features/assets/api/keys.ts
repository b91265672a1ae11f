import { BALANCE_POLL_MS, chainBalanceKeys } from '@/lib/chain-balances.ts'
import { domainKeys } from '@/lib/query-keys.ts'
import { userWalletKey } from '@/lib/user-wallet.ts'

/** How often balances refresh by themselves while the assets screen is visible. */
export { BALANCE_POLL_MS }

/** How often the withdrawals refresh by themselves while one is still on its way and the screen is visible. */
export const WITHDRAWAL_POLL_MS = 3_000

/** Query keys of the assets feature (what each action refreshes: INVALIDATES in query-keys.ts). */
export const assetsKeys = {
  wallet: userWalletKey,
  moneyLog: (address: string, coin: string) => [...domainKeys.assets, 'money-log', address, coin] as const,
  withdrawals: (address: string, coin: string) => [...domainKeys.assets, 'withdrawals', address, coin] as const,
  solvency: [...domainKeys.assets, 'solvency'] as const,
  /** On-chain balances of the connected wallet, per RPC endpoint and owner. */
  sol: chainBalanceKeys.sol,
}
