import type { Connection, PublicKey } from '@solana/web3.js'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { chainBalanceKeys } from './query-keys.ts'
import { useChainConnection, useWalletState } from './wallet/wallet-state.ts'

/** How often on-chain balances refresh by themselves while a screen that shows them is visible. */
export const BALANCE_POLL_MS = 5_000

/** Base units held per mint; null when the wallet has no token account for that mint. */
export type TokenBalances = Readonly<Record<string, bigint | null>>

/**
 * The wallet's balance of each mint: its associated token accounts, read from the chain in one request. A mint is on
 * the classic token program or on Token-2022, and only the associated account under its own program can exist, so
 * both are asked for and the one that exists counts. The chain library comes with the wallet layer, so importing it
 * here costs nothing once a wallet is connected.
 */
export async function getTokenBalances(
  connection: Connection,
  owner: PublicKey,
  mints: readonly string[],
): Promise<TokenBalances> {
  // spl-token only through token-account.ts, which installs the Buffer global it needs first.
  const [{ PublicKey }, { associatedTokenAccount, readTokenAmount, TOKEN_PROGRAMS }] = await Promise.all([
    import('@solana/web3.js'),
    import('./payment/token-account.ts'),
  ])
  const accounts = mints.flatMap((mint) =>
    TOKEN_PROGRAMS.map((program) => associatedTokenAccount(new PublicKey(mint), owner, program)),
  )
  const infos = await connection.getMultipleAccountsInfo(accounts, 'confirmed')
  return Object.fromEntries(
    mints.map((mint, index) => {
      const at = infos[2 * index] ? 2 * index : 2 * index + 1
      return [mint, readTokenAmount(accounts[at] as PublicKey, infos[at] ?? null)]
    }),
  )
}

export const tokenBalancesQueryOptions = (
  connection: Connection | null,
  owner: PublicKey | null,
  mints: readonly string[],
) =>
  queryOptions({
    queryKey: chainBalanceKeys.tokens(connection?.rpcEndpoint ?? '', owner?.toBase58() ?? '', mints),
    queryFn: connection && owner && mints.length > 0 ? () => getTokenBalances(connection, owner, mints) : skipToken,
  })

/**
 * The connected wallet's balance of each mint (what on-chain payments are paid from), refreshed every few seconds
 * while the page is visible.
 */
export function useTokenBalances(mints: readonly string[]) {
  const connection = useChainConnection()
  const { publicKey } = useWalletState()
  return useQuery({ ...tokenBalancesQueryOptions(connection, publicKey, mints), refetchInterval: BALANCE_POLL_MS })
}
