import { CLIENT_CONFIG_ELEMENT, type ClientConfig } from '@solpledge/contract/client'
import { get } from './api-client.ts'

export const APP_NAME = 'solpledge'

/**
 * Runtime configuration from the server (cluster, RPC endpoints, demo wallet flag, the product's symbol): from the
 * page when the server wrote it there, so no request stands before the screen's data; else (Vite's development server
 * serves index.html as it is) from GET /api/config.
 */
export function getConfig(): Promise<ClientConfig> {
  const inPage = document.getElementById(CLIENT_CONFIG_ELEMENT)?.textContent
  return inPage ? Promise.resolve(JSON.parse(inPage) as ClientConfig) : get<ClientConfig>('/config')
}
