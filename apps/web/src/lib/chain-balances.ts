import type { AccountInfo, Connection, PublicKey } from '@solana/web3.js'
import { type QueryKey, queryOptions, skipToken, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { usersChannel } from './live/use-live.ts'
import { chainBalanceKeys } from './query-keys.ts'
import { useChainConnection, useWalletState } from './wallet/wallet-state.ts'

/** Base units held per mint; null when the wallet has no token account for that mint. */
export type TokenBalances = Readonly<Record<string, bigint | null>>

/** The associated token accounts that may hold `owner`'s `mints`: per mint, the classic program's, then Token-2022's. */
async function tokenAccounts(owner: PublicKey, mints: readonly string[]) {
  // spl-token only through token-account.ts, which installs the Buffer global it needs first.
  const [{ PublicKey }, tokenAccount] = await Promise.all([
    import('@solana/web3.js'),
    import('./payment/token-account.ts'),
  ])
  const { associatedTokenAccount, TOKEN_PROGRAMS } = tokenAccount
  const accounts = mints.flatMap((mint) =>
    TOKEN_PROGRAMS.map((program) => associatedTokenAccount(new PublicKey(mint), owner, program)),
  )
  return { accounts, readTokenAmount: tokenAccount.readTokenAmount }
}

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
  const { accounts, readTokenAmount } = await tokenAccounts(owner, mints)
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
 * Follows accounts on the chain (accountSubscribe at confirmed commitment, through the RPC's WebSocket) while mounted:
 * `onChange` gets each notification. What changed while no subscription could hear it is read again by REST: the
 * query under `queryKey` is refetched whenever the app's live channel comes back after a break (the network, or a tab
 * hidden for a while).
 */
export function useAccountSubscriptions(
  connection: Connection | null,
  accounts: () => Promise<PublicKey[]>,
  onChange: (account: PublicKey, info: AccountInfo<Buffer>) => void,
  queryKey: QueryKey,
  deps: readonly unknown[],
) {
  const queryClient = useQueryClient()
  // biome-ignore lint/correctness/useExhaustiveDependencies: the accounts are named by `deps`
  useEffect(() => {
    if (!connection) return
    let stopped = false
    const ids: number[] = []
    void accounts().then((list) => {
      if (stopped) return
      for (const account of list)
        ids.push(connection.onAccountChange(account, (info) => onChange(account, info), { commitment: 'confirmed' }))
    })
    const offReconnected = usersChannel().onReconnected(() => {
      void queryClient.invalidateQueries({ queryKey }, { cancelRefetch: false })
    })
    return () => {
      stopped = true
      offReconnected()
      for (const id of ids) void connection.removeAccountChangeListener(id).catch(() => {})
    }
  }, [connection, ...deps])
}

/** The connected wallet's balance of each mint (what on-chain payments are paid from), as the chain changes it. */
export function useTokenBalances(mints: readonly string[]) {
  const connection = useChainConnection()
  const { publicKey } = useWalletState()
  const queryClient = useQueryClient()
  const options = tokenBalancesQueryOptions(connection, publicKey, mints)
  useAccountSubscriptions(
    publicKey && mints.length > 0 ? connection : null,
    async () => (publicKey ? (await tokenAccounts(publicKey, mints)).accounts : []),
    async (account, info) => {
      const { accounts, readTokenAmount } = await tokenAccounts(publicKey as PublicKey, mints)
      const index = accounts.findIndex((candidate) => candidate.equals(account))
      const mint = mints[Math.floor(index / 2)]
      // A closed account says nothing of its sibling under the other program: read both again.
      if (mint === undefined || info.lamports === 0)
        return void queryClient.invalidateQueries({ queryKey: options.queryKey })
      queryClient.setQueryData<TokenBalances>(options.queryKey, (old) => ({
        ...old,
        [mint]: readTokenAmount(account, info),
      }))
    },
    options.queryKey,
    [publicKey?.toBase58(), mints.join()],
  )
  return useQuery(options)
}
