import type { ClientConfig } from '@solpledge/contract/client'
import { createContext, useContext } from 'react'

/** The runtime config from GET /api/config, loaded before the first render and provided by the shell. */
export const ClientConfigContext = createContext<ClientConfig | null>(null)

export function useClientConfig() {
  const config = useContext(ClientConfigContext)
  if (!config) throw new Error('useClientConfig must be used inside the app shell')
  return config
}
