import type { QueryClient, QueryKey } from '@tanstack/react-query'

/**
 * The first element of every query key of the users' app: one per domain, named as the contract's and the server's
 * domains are. Every query of a feature is under its domain's key, so a refresh of the domain reaches them all.
 */
export const domainKeys = {
  assets: ['assets'],
  pledge: ['pledge'],
  node: ['node'],
  finance: ['finance'],
  trade: ['trade'],
  home: ['home'],
  notice: ['notice'],
  team: ['team'],
  rank: ['rank'],
} as const satisfies Record<string, QueryKey>

/** The user's balances (lib/user-wallet.ts): under assets, so the assets' refreshes include them. */
export const userWalletKeys = [...domainKeys.assets, 'wallet'] as const
/** The connected wallet's on-chain balances (lib/chain-balances.ts). */
export const chainBalanceRoot = [...domainKeys.assets, 'chain'] as const
/**
 * Query keys of the connected wallet's on-chain balances, per RPC endpoint and owner. Under the assets domain's key,
 * so its refreshes after a top-up or the faucet include them.
 */
export const chainBalanceKeys = {
  sol: (endpoint: string, owner: string) => [...chainBalanceRoot, endpoint, owner, 'SOL'] as const,
  tokens: (endpoint: string, owner: string, mints: readonly string[]) =>
    [...chainBalanceRoot, endpoint, owner, 'tokens', ...mints] as const,
}

/**
 * The one map of what each money action makes stale: when it has settled (done or refused), the queries under these
 * keys refetch. A money action names its entry (`useMoneyAction({ invalidates })`); nothing else invalidates.
 */
export const INVALIDATES = {
  /** Staking from the balance: the stakes, fuel and today's figures (home and pledge show them); the balances. */
  stake: [domainKeys.pledge, userWalletKeys],
  nodeBuy: [domainKeys.node, userWalletKeys],
  financeDeposit: [domainKeys.finance, userWalletKeys],
  financeRedeem: [domainKeys.finance, userWalletKeys],
  /** An order, a cancel or a swap: the book, the orders, the balances and the price the home screen shows. */
  trade: [domainKeys.trade, userWalletKeys, domainKeys.home],
  /** The balances, the ledger and the withdrawals. */
  withdraw: [domainKeys.assets],
  /** The wallet's on-chain balances (the faucet pays on chain, not into the balances). */
  faucet: [chainBalanceRoot],
  /** A payment on chain (a top-up, or a stake or node paid by intent) may change anything: every query (the empty key). */
  payment: [[]],
} as const satisfies Record<string, readonly QueryKey[]>
export type MoneyAction = keyof typeof INVALIDATES

/** Refetches what `action` made stale (see INVALIDATES). */
export const invalidateAfter = (queryClient: QueryClient, action: MoneyAction) =>
  Promise.all(INVALIDATES[action].map((queryKey) => queryClient.invalidateQueries({ queryKey })))
