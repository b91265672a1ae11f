/** Query keys of the console's data, all under 'admin' so signing out drops them at once. */
export const adminKeys = {
  all: ['admin'] as const,
  config: () => [...adminKeys.all, 'config'] as const,
  configHistory: () => [...adminKeys.all, 'config-history'] as const,
  assets: () => [...adminKeys.all, 'assets'] as const,
  assetHistory: (coin: string) => [...adminKeys.all, 'asset-history', coin] as const,
  operators: () => [...adminKeys.all, 'operators'] as const,
  /** Every list of changes, whatever its filter: what an event refreshes (a list not on screen reads again when shown). */
  changeLists: () => [...adminKeys.all, 'changes'] as const,
  changes: (filter: object) => [...adminKeys.changeLists(), filter] as const,
  notices: () => [...adminKeys.all, 'notices'] as const,
  banners: () => [...adminKeys.all, 'banners'] as const,
  campaigns: () => [...adminKeys.all, 'campaigns'] as const,
  campaignQualifiers: (id: string) => [...adminKeys.all, 'campaign-qualifiers', id] as const,
  withdrawalLists: () => [...adminKeys.all, 'withdrawals'] as const,
  withdrawals: (filter: object) => [...adminKeys.withdrawalLists(), filter] as const,
  users: (q: string) => [...adminKeys.all, 'users', q] as const,
  user: (address: string) => [...adminKeys.all, 'user', address] as const,
  userList: (address: string, list: string, filter: object = {}) =>
    [...adminKeys.all, 'user', address, list, filter] as const,
  adjustments: (filter: object) => [...adminKeys.all, 'adjustments', filter] as const,
  solvency: () => [...adminKeys.all, 'solvency'] as const,
  jobs: () => [...adminKeys.all, 'jobs'] as const,
  history: () => [...adminKeys.all, 'history'] as const,
  audit: (filter: object) => [...adminKeys.all, 'audit', filter] as const,
}
