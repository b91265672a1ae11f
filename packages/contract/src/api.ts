import { adminRoutes } from './admin-routes.ts'
import { assetsRoutes } from './assets.ts'
import { authRoutes } from './auth.ts'
import { campaignRoutes } from './campaign.ts'
import type { RouteDef } from './common.ts'
import { financeRoutes } from './finance.ts'
import { homeRoutes } from './home.ts'
import { nodeRoutes } from './node.ts'
import { noticeRoutes } from './notice.ts'
import { pledgeRoutes } from './pledge.ts'
import { rankRoutes } from './rank.ts'
import { settlementRoutes } from './settlement.ts'
import { teamRoutes } from './team.ts'
import { tradeRoutes } from './trade.ts'
import { userRoutes } from './user.ts'
import { withdrawalsRoutes } from './withdrawals.ts'

// The whole contract: each domain's routes and schemas live in their own file (auth.ts, assets.ts, …, the operator
// console's in admin-routes.ts); this file only puts them together.
export * from './admin-routes.ts'
export * from './assets.ts'
export * from './auth.ts'
export * from './campaign.ts'
export * from './common.ts'
export * from './finance.ts'
export * from './home.ts'
export * from './node.ts'
export * from './notice.ts'
export * from './pledge.ts'
export * from './rank.ts'
export * from './settlement.ts'
export * from './team.ts'
export * from './trade.ts'
export * from './user.ts'
export * from './withdrawals.ts'

/** Every route a user's app calls (and the operator's settlement run): what the web's user entry knows. */
export const appRoutes = {
  ...authRoutes,
  ...userRoutes,
  ...assetsRoutes,
  ...withdrawalsRoutes,
  ...pledgeRoutes,
  ...nodeRoutes,
  ...financeRoutes,
  ...settlementRoutes,
  ...noticeRoutes,
  ...campaignRoutes,
  ...teamRoutes,
  ...rankRoutes,
  ...homeRoutes,
  ...tradeRoutes,
} as const satisfies Record<string, RouteDef>
export type AppApi = typeof appRoutes

/** Every route of the API: the users' and the operator console's. The server registers these. */
export const api = { ...appRoutes, ...adminRoutes } as const satisfies Record<string, RouteDef>
export type Api = typeof api
