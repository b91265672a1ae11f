import { domainKeys } from '@/lib/query-keys.ts'
/** Query keys of the node feature; what each action refreshes: INVALIDATES in query-keys.ts. */
export const nodeKeys = {
  all: domainKeys.node,
  levels: ['node', 'levels'] as const,
  mine: (address: string) => ['node', 'mine', address] as const,
}
