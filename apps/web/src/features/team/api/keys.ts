import { domainKeys } from '@/lib/query-keys.ts'

/** Query keys of the team feature. */
export const teamKeys = {
  figures: (address: string) => [...domainKeys.team, 'figures', address] as const,
  members: (address: string) => [...domainKeys.team, 'members', address] as const,
  member: (address: string, member: string) => [...domainKeys.team, 'member', address, member] as const,
}

/** The direct-member list's page size: the first page is page 1 of 10 (docs/product.md#team). */
export const TEAM_PAGE_SIZE = 10
