import type { AdminLoginData } from '@solpledge/contract/client'
import { createStore } from '@/lib/store.ts'

/**
 * The operator's console session (address, role, expiry and token): kept apart from the user session, so neither
 * login ends the other.
 */
export type AdminSession = AdminLoginData

/** sessionStorage key: the session lasts while the tab does, like the user's token. */
const ADMIN_SESSION_KEY = 'admin-session'

function read(): AdminSession | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(ADMIN_SESSION_KEY) ?? 'null') as AdminSession | null
    return stored && Date.parse(stored.expires_at) > Date.now() ? stored : null
  } catch {
    return null
  }
}

const store = createStore<AdminSession | null>(read())

/** The current console session, or null. */
export const getAdminSession = store.get
export const useAdminSession = store.use
/** Calls `listener` after every change of the console session (the console's live channel follows it). */
export const onAdminSessionChange = store.subscribe

export function saveAdminSession(session: AdminSession) {
  sessionStorage.setItem(ADMIN_SESSION_KEY, JSON.stringify(session))
  store.set(session)
}

export function clearAdminSession() {
  sessionStorage.removeItem(ADMIN_SESSION_KEY)
  store.set(null)
}
