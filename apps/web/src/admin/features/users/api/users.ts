import { adminApi } from '@solpledge/contract/admin'
import type { LedgerType, TradeOrderStatus, TradeSide } from '@solpledge/contract/client'
import { useQuery } from '@tanstack/react-query'
import { adminCall } from '@/admin/lib/api-client.ts'
import { adminKeys } from '@/admin/lib/query-keys.ts'
import { useAdminAction } from '@/admin/lib/use-admin-action.ts'
import { useAdminPages } from '@/admin/lib/use-admin-pages.ts'

/** Users whose address starts with `q` (at least 3 characters) or whose id is `q`; every user when empty. */
export const useUserSearch = (q: string) =>
  useAdminPages(adminKeys.users(q), (page) => adminCall(adminApi.adminUsers, { ...(q && { q }), ...page }))

/** A user by address: referral parent, team figures, balances, active sessions. */
export const useAdminUser = (address: string) =>
  useQuery({
    queryKey: adminKeys.user(address),
    queryFn: () => adminCall(adminApi.adminUser, { address }),
    enabled: address !== '',
    retry: false,
  })

export const useUserLedger = (address: string, filter: { coin?: string; type?: LedgerType }) =>
  useAdminPages(adminKeys.userList(address, 'ledger', filter), (page) =>
    adminCall(adminApi.adminUserLedger, { address, ...filter, ...page }),
  )

export const useUserStakes = (address: string) =>
  useAdminPages(adminKeys.userList(address, 'stakes'), (page) =>
    adminCall(adminApi.adminUserStakes, { address, ...page }),
  )

export const useUserFinance = (address: string) =>
  useAdminPages(adminKeys.userList(address, 'finance'), (page) =>
    adminCall(adminApi.adminUserFinance, { address, ...page }),
  )

/** A user's quick-trade orders of a status, both sides unless `type` is given. */
export const useUserOrders = (address: string, filter: { status: TradeOrderStatus; type?: TradeSide }) =>
  useAdminPages(adminKeys.userList(address, 'orders', filter), (page) =>
    adminCall(adminApi.adminUserOrders, { address, ...filter, ...page }),
  )

export const useUserSessions = (address: string) =>
  useAdminPages(adminKeys.userList(address, 'sessions'), (page) =>
    adminCall(adminApi.adminUserSessions, { address, ...page }),
  )

export const useUserNodes = (address: string) =>
  useQuery({
    queryKey: adminKeys.userList(address, 'nodes'),
    queryFn: async () => (await adminCall(adminApi.adminUserNodes, { address })).list,
  })

type AdjustmentFilter = { status?: 'pending' | 'applied' | 'rejected'; address?: string }

export const useAdjustments = (filter: AdjustmentFilter) =>
  useAdminPages(adminKeys.adjustments(filter), (page) => adminCall(adminApi.adminAdjustments, { ...filter, ...page }))

/** Revokes one session of a user (sessionId) or all of them, with a reason. */
export const useRevokeSessions = (onDone: () => void) => useAdminAction(adminApi.adminUserRevoke, onDone)

/** A manual balance adjustment: signed base units and a reason; applied at once or waiting for a second admin. */
export const useAdjust = (onDone: () => void) => useAdminAction(adminApi.adminAdjust, onDone)

export const useApproveAdjustment = (onDone: () => void) => useAdminAction(adminApi.adminAdjustApprove, onDone)

export const useRejectAdjustment = (onDone: () => void) => useAdminAction(adminApi.adminAdjustReject, onDone)
