import { api } from '@solpledge/contract/client'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { call } from '@/lib/api-client.ts'
import { useLiveRefresh } from '@/lib/live/use-live.ts'
import { nodeKeys } from './keys.ts'

/**
 * The node levels with price, supply and benefits, and the node pool they share (what a node's estimate needs).
 * Public: no session needed.
 */
export const getNodeLevels = () => call(api.nodeLevel, {})

export const nodeLevelsQueryOptions = () => queryOptions({ queryKey: nodeKeys.levels, queryFn: getNodeLevels })

export function useNodeLevels() {
  useLiveRefresh('config', nodeLevelsQueryOptions().queryKey)
  return useQuery(nodeLevelsQueryOptions())
}

export type NodeLevels = Awaited<ReturnType<typeof getNodeLevels>>
export type NodeLevel = NodeLevels['list'][number]
