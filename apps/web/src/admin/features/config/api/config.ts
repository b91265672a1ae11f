import { adminApi } from '@solpledge/contract/admin'
import type { AdminChange } from '@solpledge/contract/client'
import { useQuery } from '@tanstack/react-query'
import { adminCall } from '@/admin/lib/api-client.ts'
import { findAdminAsset, useAdminAssets } from '@/admin/lib/assets.ts'
import { useConsoleRefresh } from '@/admin/lib/live.ts'
import { adminKeys } from '@/admin/lib/query-keys.ts'
import { useAdminAction } from '@/admin/lib/use-admin-action.ts'
import { useAdminPages } from '@/admin/lib/use-admin-pages.ts'
import { useClientConfig } from '@/lib/client-config.ts'
import { USDT_DECIMALS } from '@/lib/format.ts'
import type { Decimals } from '../utils/draft.ts'

/** The configuration in force (its newest version, with the version's id to save against). */
export const useBusinessConfig = () =>
  useQuery({ queryKey: adminKeys.config(), queryFn: () => adminCall(adminApi.adminConfig, {}) })

export const useSaveConfig = (onDone: () => void) => useAdminAction(adminApi.adminConfigSave, onDone)

export const useConfigHistory = () =>
  useAdminPages(adminKeys.configHistory(), (page) => adminCall(adminApi.adminConfigHistory, page))

export const useSaveAsset = (onDone: () => void) => useAdminAction(adminApi.adminAssetSave, onDone)

export const useAssetHistory = (coin: string) =>
  useAdminPages(adminKeys.assetHistory(coin), (page) =>
    adminCall(adminApi.adminAssetHistory, { ...(coin && { coin }), ...page }),
  )

export const useOperators = () =>
  useQuery({ queryKey: adminKeys.operators(), queryFn: async () => (await adminCall(adminApi.adminAdmins, {})).list })

export const useSaveOperator = (onDone: () => void) => useAdminAction(adminApi.adminAdminSave, onDone)

export const useRemoveOperator = () => useAdminAction(adminApi.adminAdminRemove)

export type ChangeStatus = AdminChange['status']
export const CHANGE_STATUSES: readonly ChangeStatus[] = [
  'pending',
  'scheduled',
  'applied',
  'rejected',
  'cancelled',
  'stale',
]

/**
 * Changes of the allow-list, the asset settings and the configuration of a status ('pending': waiting for a second
 * admin; 'scheduled': waiting for the end of the notice period), read again when one is proposed or decided (the
 * console topic).
 */
export function useChanges(status: ChangeStatus) {
  useConsoleRefresh(adminKeys.changeLists(), (event) => event.kind === 'change')
  return useAdminPages(adminKeys.changes({ status }), (page) => adminCall(adminApi.adminChanges, { status, ...page }))
}

export const useApproveChange = (onDone: () => void) => useAdminAction(adminApi.adminChangeApprove, onDone)

export const useRejectChange = (onDone: () => void) => useAdminAction(adminApi.adminChangeReject, onDone)

/**
 * The decimals and symbols amounts of the configuration are counted in: USDT and the platform's token. Undefined
 * until the assets are loaded.
 */
export function useConfigUnits() {
  const { productSymbol } = useClientConfig()
  const assets = useAdminAssets()
  const product = findAdminAsset(assets.data, productSymbol)
  const usdt = findAdminAsset(assets.data, 'USDT')
  if (!product) return { assets, units: undefined }
  const decimals: Decimals = { usdt: usdt?.decimals ?? USDT_DECIMALS, product: product.decimals }
  return { assets, units: { decimals, symbols: { usdt: 'USDT', product: productSymbol } } }
}
