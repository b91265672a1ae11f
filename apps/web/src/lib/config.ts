import type { ClientConfig } from '@solpledge/contract/client'
import { get } from './api-client.ts'

export const APP_NAME = 'solpledge'

/** Runtime configuration from the server (cluster, RPC endpoints, demo wallet flag). */
export const getConfig = () => get<ClientConfig>('/config')
