import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { nodeKeys } from './keys.ts'

/** The node levels with price, supply and benefits. Public: no session needed. */
export const getNodeLevels = async () => (await call(api.nodeLevel, {})).list

export const nodeLevelsQueryOptions = () => queryOptions({ queryKey: nodeKeys.levels, queryFn: getNodeLevels })

export function useNodeLevels() {
  useLiveRefresh('config', nodeLevelsQueryOptions().queryKey)
  return useQuery(nodeLevelsQueryOptions())
}

export type NodeLevel = Awaited<ReturnType<typeof getNodeLevels>>[number]
