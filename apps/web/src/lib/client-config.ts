import type { ClientConfig } from '@solpledge/contract'
import { createContext, useContext } from 'react'

/** The runtime config from GET /api/config, provided by the wallet layer once it has loaded. */
export const ClientConfigContext = createContext<ClientConfig | null>(null)

export function useClientConfig() {
  const config = useContext(ClientConfigContext)
  if (!config) throw new Error('useClientConfig must be used inside the wallet layer')
  return config
}
