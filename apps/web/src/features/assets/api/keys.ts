import { chainBalanceKeys, domainKeys } from '@/lib/query-keys.ts'
import { userWalletKey } from '@/lib/user-wallet.ts'

/** Query keys of the assets feature (what each action refreshes: INVALIDATES in query-keys.ts). */
export const assetsKeys = {
  wallet: userWalletKey,
  moneyLog: (address: string, coin: string) => [...domainKeys.assets, 'money-log', address, coin] as const,
  withdrawals: (address: string, coin: string) => [...domainKeys.assets, 'withdrawals', address, coin] as const,
  solvency: [...domainKeys.assets, 'solvency'] as const,
  /**
   * Proof of liabilities, under a root of its own that no money action refreshes: a snapshot changes once a day, not
   * with the user's top-ups, and verifying asks the chain's RPC endpoint.
   */
  liabilitiesRoot: ['liabilities', 'root'] as const,
  liabilitiesProof: (address: string, snapshotId: string) => ['liabilities', 'proof', address, snapshotId] as const,
  inclusion: (address: string, snapshotId: string, signature: string, rpcUrl: string) =>
    ['liabilities', 'inclusion', address, snapshotId, signature, rpcUrl] as const,
  /** On-chain balances of the connected wallet, per RPC endpoint and owner. */
  sol: chainBalanceKeys.sol,
}
