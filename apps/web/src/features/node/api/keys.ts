/** Query keys of the node feature; everything below `all` is refreshed after a purchase. */
export const nodeKeys = {
  all: ['node'] as const,
  levels: ['node', 'levels'] as const,
  mine: (address: string) => ['node', 'mine', address] as const,
}
