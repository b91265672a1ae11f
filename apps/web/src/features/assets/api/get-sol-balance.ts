import type { Connection, PublicKey } from '@solana/web3.js'
import { queryOptions, skipToken, useQuery, useQueryClient } from '@tanstack/react-query'
import { useAccountSubscriptions } from '@/lib/chain-balances.ts'
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

/** The connected wallet's SOL, as the chain changes it (accountSubscribe on the wallet). */
export function useSolBalance() {
  const connection = useChainConnection()
  const { publicKey } = useWalletState()
  const queryClient = useQueryClient()
  const options = solBalanceQueryOptions(connection, publicKey)
  useAccountSubscriptions(
    publicKey ? connection : null,
    async () => (publicKey ? [publicKey] : []),
    (_account, info) => queryClient.setQueryData(options.queryKey, BigInt(info.lamports)),
    options.queryKey,
    [publicKey?.toBase58()],
  )
  return useQuery(options)
}
