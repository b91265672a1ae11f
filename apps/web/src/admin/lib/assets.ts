import { adminApi } from '@solpledge/contract/admin'
import type { AdminAsset } from '@solpledge/contract/client'
import { useQuery } from '@tanstack/react-query'
import { adminCall } from './api-client.ts'
import { adminKeys } from './query-keys.ts'

/** Every asset with its decimals and operator settings: the console's source of decimals for amounts. */
export const useAdminAssets = () =>
  useQuery({ queryKey: adminKeys.assets(), queryFn: async () => (await adminCall(adminApi.adminAssets, {})).list })

/** The asset of `coin` among the loaded ones. */
export const findAdminAsset = (assets: readonly AdminAsset[] | undefined, coin: string) =>
  assets?.find((asset) => asset.coin === coin)
