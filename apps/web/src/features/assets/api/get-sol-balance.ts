import type { Connection, PublicKey } from '@solana/web3.js'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { BALANCE_POLL_MS } from '@/lib/chain-balances.ts'
import { useChainConnection, useWalletState } from '@/lib/wallet/wallet-state.ts'
import { assetsKeys } from './keys.ts'

/** Decimals of SOL: lamports per SOL is 10^9. */
export const SOL_DECIMALS = 9

/** The wallet's SOL in lamports, read from the chain. */
export const getSolBalance = async (connection: Connection, owner: PublicKey) =>
  BigInt(await connection.getBalance(owner, 'confirmed'))

export const solBalanceQueryOptions = (connection: Connection | null, owner: PublicKey | null) =>
  queryOptions({
    queryKey: assetsKeys.sol(connection?.rpcEndpoint ?? '', owner?.toBase58() ?? ''),
    queryFn: connection && owner ? () => getSolBalance(connection, owner) : skipToken,
  })

/** The connected wallet's SOL, refreshed every few seconds while the page is visible. */
export function useSolBalance() {
  const connection = useChainConnection()
  const { publicKey } = useWalletState()
  return useQuery({ ...solBalanceQueryOptions(connection, publicKey), refetchInterval: BALANCE_POLL_MS })
}
