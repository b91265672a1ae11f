import { domainKeys } from '@/lib/query-keys.ts'

/** Query keys of the node feature; what each action refreshes: INVALIDATES in query-keys.ts. */
export const nodeKeys = {
  levels: [...domainKeys.node, 'levels'] as const,
  mine: (address: string) => [...domainKeys.node, 'mine', address] as const,
}
