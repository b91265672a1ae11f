import { api, type LedgerType, type TradeOrderStatus, type TradeSide } from '@solpledge/contract/client'
import { useQuery } from '@tanstack/react-query'
import { adminCall } from '../api/client.ts'
import { adminKeys } from '../api/keys.ts'
import { useAdminAction } from '../api/use-admin-action.ts'
import { useAdminPages } from '../api/use-admin-pages.ts'

/** Users whose address starts with `q` (at least 3 characters) or whose id is `q`; every user when empty. */
export const useUserSearch = (q: string) =>
  useAdminPages(adminKeys.users(q), (page) => adminCall(api.adminUsers, { ...(q && { q }), ...page }))

/** A user by address: referral parent, team figures, balances, active sessions. */
export const useAdminUser = (address: string) =>
  useQuery({
    queryKey: adminKeys.user(address),
    queryFn: () => adminCall(api.adminUser, { address }),
    enabled: address !== '',
    retry: false,
  })

export const useUserLedger = (address: string, filter: { coin?: string; type?: LedgerType }) =>
  useAdminPages(adminKeys.userList(address, 'ledger', filter), (page) =>
    adminCall(api.adminUserLedger, { address, ...filter, ...page }),
  )

export const useUserStakes = (address: string) =>
  useAdminPages(adminKeys.userList(address, 'stakes'), (page) => adminCall(api.adminUserStakes, { address, ...page }))

export const useUserFinance = (address: string) =>
  useAdminPages(adminKeys.userList(address, 'finance'), (page) => adminCall(api.adminUserFinance, { address, ...page }))

/** A user's quick-trade orders of a status, both sides unless `type` is given. */
export const useUserOrders = (address: string, filter: { status: TradeOrderStatus; type?: TradeSide }) =>
  useAdminPages(adminKeys.userList(address, 'orders', filter), (page) =>
    adminCall(api.adminUserOrders, { address, ...filter, ...page }),
  )

export const useUserSessions = (address: string) =>
  useAdminPages(adminKeys.userList(address, 'sessions'), (page) =>
    adminCall(api.adminUserSessions, { address, ...page }),
  )

export const useUserNodes = (address: string) =>
  useQuery({
    queryKey: adminKeys.userList(address, 'nodes'),
    queryFn: async () => (await adminCall(api.adminUserNodes, { address })).list,
  })

type AdjustmentFilter = { status?: 'pending' | 'applied' | 'rejected'; address?: string }

export const useAdjustments = (filter: AdjustmentFilter) =>
  useAdminPages(adminKeys.adjustments(filter), (page) => adminCall(api.adminAdjustments, { ...filter, ...page }))

/** Revokes one session of a user (sessionId) or all of them, with a reason. */
export const useRevokeSessions = (onDone: () => void) => useAdminAction(api.adminUserRevoke, onDone)

/** A manual balance adjustment: signed base units and a reason; applied at once or waiting for a second admin. */
export const useAdjust = (onDone: () => void) => useAdminAction(api.adminAdjust, onDone)

export const useApproveAdjustment = (onDone: () => void) => useAdminAction(api.adminAdjustApprove, onDone)

export const useRejectAdjustment = (onDone: () => void) => useAdminAction(api.adminAdjustReject, onDone)
