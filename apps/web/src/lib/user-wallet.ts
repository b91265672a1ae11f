import { type AssetBalance, api, type LiveEvent } from '@solpledge/contract/client'
import { queryOptions, skipToken, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from './api-client.ts'
import { refetch, refetchSoon, useLiveRefresh, useLiveTopic } from './live/use-live.ts'
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

/** The wallet after a balance event: the account's balance as the ledger has it now, the total beside it. */
export function withBalance(
  assets: readonly AssetBalance[],
  event: Extract<LiveEvent<'user'>, { kind: 'balance' }>,
): AssetBalance[] {
  return assets.map((asset) => {
    if (asset.coin !== event.coin) return asset
    const next = { ...asset, [event.account]: event.balance }
    const balance = (BigInt(next.available) + BigInt(next.locked)).toString()
    // USDT is worth itself; another asset's value follows the price, which only the server applies.
    const usdt_value = asset.usdt_value === asset.balance ? balance : asset.usdt_value
    return { ...next, balance, usdt_value }
  })
}

/** The user's balances, following the balance events of the live channel. */
export function useUserWallet() {
  const address = useSignedInAddress()
  const queryClient = useQueryClient()
  const key = userWalletKey(address ?? '')
  useLiveTopic(
    'user',
    {
      onEvent: (event) => {
        if (event.kind !== 'balance') return
        const before = queryClient.getQueryData<AssetBalance[]>(key)
        if (!before) return
        const after = withBalance(before, event)
        queryClient.setQueryData(key, after)
        // A read already in flight (started by an earlier invalidation) may have left before this movement: its answer
        // would overwrite the new balance with the older one, and no later event would correct it. Cancel it and read
        // again (invalidateQueries cancels a fetch in flight by default); the event's balance shows meanwhile.
        if (queryClient.isFetching({ queryKey: key }) > 0) {
          void queryClient.invalidateQueries({ queryKey: key })
          return
        }
        // The value of an asset priced in USDT comes from the server.
        const asset = after.find((a) => a.coin === event.coin)
        if (asset && asset.usdt_value !== null && asset.usdt_value !== asset.balance) refetchSoon(queryClient, key)
      },
      onSnapshot: () => refetch(queryClient, key),
    },
    address !== null,
  )
  // Fees and minimums are the assets' settings.
  useLiveRefresh('config', key, { match: (event) => event.kind === 'assets', enabled: address !== null })
  return useQuery(userWalletQueryOptions(address))
}

/** The wallet entry of `coin` (matched by coin or symbol), if the user's wallet lists it. */
export const findAsset = (assets: readonly AssetBalance[] | undefined, coin: string) =>
  assets?.find((asset) => asset.coin === coin || asset.symbol === coin)
