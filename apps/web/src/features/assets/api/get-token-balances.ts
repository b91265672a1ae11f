import { useConnection, useWallet } from '@solana/wallet-adapter-react'
import { type Connection, PublicKey } from '@solana/web3.js'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { associatedTokenAccount, readTokenAmount } from '../utils/token-account.ts'
import { assetsKeys, BALANCE_POLL_MS } from './keys.ts'

/** Base units held per mint; null when the wallet has no token account for that mint. */
export type TokenBalances = Readonly<Record<string, bigint | null>>

/** The wallet's balance of each mint: its associated token accounts, read from the chain in one request. */
export async function getTokenBalances(
  connection: Connection,
  owner: PublicKey,
  mints: readonly string[],
): Promise<TokenBalances> {
  const accounts = mints.map((mint) => associatedTokenAccount(new PublicKey(mint), owner))
  const infos = await connection.getMultipleAccountsInfo(accounts, 'confirmed')
  return Object.fromEntries(
    mints.map((mint, index) => [mint, readTokenAmount(accounts[index] as PublicKey, infos[index] ?? null)]),
  )
}

export const tokenBalancesQueryOptions = (connection: Connection, owner: PublicKey | null, mints: readonly string[]) =>
  queryOptions({
    queryKey: assetsKeys.tokens(connection.rpcEndpoint, owner?.toBase58() ?? '', mints),
    queryFn: owner && mints.length > 0 ? () => getTokenBalances(connection, owner, mints) : skipToken,
  })

/** The connected wallet's balance of each mint, refreshed every few seconds while the page is visible. */
export function useTokenBalances(mints: readonly string[]) {
  const { connection } = useConnection()
  const { publicKey } = useWallet()
  return useQuery({ ...tokenBalancesQueryOptions(connection, publicKey, mints), refetchInterval: BALANCE_POLL_MS })
}
