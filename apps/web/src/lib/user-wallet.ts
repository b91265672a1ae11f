import { type AssetBalance, api } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { call } from './api-client.ts'
import { userWalletKeys } from './query-keys.ts'
import { useSignedInAddress } from './session.ts'

/**
 * The signed-in user's assets with their balances, shared by every screen that shows or spends them (assets, node):
 * one cache entry, so a purchase anywhere refreshes the balance everywhere (query-keys.ts: userWalletKeys).
 */
export const userWalletKey = (address: string) => [...userWalletKeys, address] as const

export const getUserWallet = async () => (await call(api.userWallet, {})).list

export const userWalletQueryOptions = (address: string | null) =>
  queryOptions({ queryKey: userWalletKey(address ?? ''), queryFn: address ? getUserWallet : skipToken })

/** `pollMs`: refresh that often while the page is visible. */
export function useUserWallet({ pollMs }: { pollMs?: number } = {}) {
  const address = useSignedInAddress()
  return useQuery({ ...userWalletQueryOptions(address), refetchInterval: pollMs ?? false })
}

/** The wallet entry of `coin` (matched by coin or symbol), if the user's wallet lists it. */
export const findAsset = (assets: readonly AssetBalance[] | undefined, coin: string) =>
  assets?.find((asset) => asset.coin === coin || asset.symbol === coin)
