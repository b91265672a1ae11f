import { type AdminRole, type AssetSettings, api, type BusinessConfig } from '@solpledge/contract/client'
import { useQuery } from '@tanstack/react-query'
import { useClientConfig } from '../../../lib/client-config.ts'
import { USDT_DECIMALS } from '../../../lib/format.ts'
import { findAdminAsset, useAdminAssets } from '../api/assets.ts'
import { adminCall, adminSend } from '../api/client.ts'
import { adminKeys } from '../api/keys.ts'
import { useAdminAction } from '../api/use-admin-action.ts'
import { useAdminPages } from '../api/use-admin-pages.ts'
import type { Decimals } from './draft.ts'

/** The configuration in force (its newest version, with the version's id to save against). */
export const useBusinessConfig = () =>
  useQuery({ queryKey: adminKeys.config(), queryFn: () => adminCall(api.adminConfig, {}) })

export const useSaveConfig = (onDone: () => void) =>
  useAdminAction(
    (body: { base_version: string; value: BusinessConfig }) => adminSend(api.adminConfigSave, body),
    onDone,
  )

export const useConfigHistory = () =>
  useAdminPages(adminKeys.configHistory(), (page) => adminCall(api.adminConfigHistory, page))

export const useSaveAsset = (onDone: () => void) =>
  useAdminAction(
    (body: AssetSettings & { coin: string; base_version: string }) => adminSend(api.adminAssetSave, body),
    onDone,
  )

export const useAssetHistory = (coin: string) =>
  useAdminPages(adminKeys.assetHistory(coin), (page) =>
    adminCall(api.adminAssetHistory, { ...(coin && { coin }), ...page }),
  )

export const useOperators = () =>
  useQuery({ queryKey: adminKeys.operators(), queryFn: async () => (await adminCall(api.adminAdmins, {})).list })

export const useSaveOperator = (onDone: () => void) =>
  useAdminAction((body: { address: string; role: AdminRole }) => adminSend(api.adminAdminSave, body), onDone)

export const useRemoveOperator = () => useAdminAction((address: string) => adminSend(api.adminAdminRemove, { address }))

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
