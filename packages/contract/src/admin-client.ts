/**
 * The operator console's routes as the web's console (a chunk of its own, loaded lazily) calls them: each route's path
 * and flags, typed with its body and data, without any schema runtime, as client.ts gives the users' routes.
 */

import { adminRouteTable } from './admin-route-table.ts'
import type { AdminApi } from './admin-routes.ts'
import type { ClientRoute } from './client.ts'

export type AdminClientApi = { readonly [K in keyof AdminApi]: ClientRoute<AdminApi[K]> }

/** Every console route by name, as admin-routes.ts defines them, without their schemas. */
export const adminApi: AdminClientApi = adminRouteTable
