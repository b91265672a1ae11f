import type { LoginData } from '@solpledge/contract/client'
import { createStore } from './store.ts'

/** Login state (docs/product.md#login), persisted under localStorage 'root'. */
export interface Session {
  loginStatus: boolean
  isBind: boolean
  userInfo: LoginData | null
}

/**
 * Storage keys (docs/product.md#storage-keys). Only these are ever cleared: the language and demo-wallet keys survive.
 */
export const ROOT_KEY = 'root'
export const USERINFO_KEY = 'userinfo'
export const TOKEN_KEY = 'token'
/**
 * localStorage: the user signed out (Disconnect, or the wallet disconnected the site). The next page load connects
 * nothing by itself until the user chooses a wallet again.
 */
export const SIGNED_OUT_KEY = 'signedOut'

const signedOut: Session = { loginStatus: false, isBind: false, userInfo: null }
const store = createStore<Session>(signedOut)
const address = createStore<string | null>(null)

/**
 * Writes are for the account connected now: one that arrives for another account (a sign-in or a check that was on
 * its way when the wallet disconnected or switched) is dropped, so nothing is written back after a clear.
 */
const isCurrent = (account: string) => account === address.get()

function persist(next: Session) {
  localStorage.setItem(ROOT_KEY, JSON.stringify(next))
  store.set(next)
}

/** Resets the login state and removes userinfo, root and token from storage. */
export function clearSession() {
  localStorage.removeItem(USERINFO_KEY)
  localStorage.removeItem(ROOT_KEY)
  sessionStorage.removeItem(TOKEN_KEY)
  store.set(signedOut)
}

/** Signed in as `data.address` (a sign-in, or a stored session found live): false, and nothing written, for another. */
export function saveLogin(data: LoginData) {
  if (!isCurrent(data.address)) return false
  localStorage.setItem(USERINFO_KEY, JSON.stringify(data))
  sessionStorage.setItem(TOKEN_KEY, data.token)
  persist({ loginStatus: true, isBind: true, userInfo: data })
  return true
}

/** The connected `account` is not bound to a referrer: the bind dialog shows. */
export function markUnbound(account: string) {
  if (isCurrent(account)) persist({ ...store.get(), isBind: false })
}

/**
 * The session stored for `account` by an earlier page of this browser (userinfo with its token, and root saying it
 * was signed in), or null. Whether the server still accepts it is the caller's to ask.
 */
export function storedSession(account: string): LoginData | null {
  try {
    const root = JSON.parse(localStorage.getItem(ROOT_KEY) ?? 'null') as Partial<Session> | null
    const info = JSON.parse(localStorage.getItem(USERINFO_KEY) ?? 'null') as LoginData | null
    if (!root?.loginStatus || !info || info.address !== account || typeof info.token !== 'string') return null
    return { ...info, token: sessionStorage.getItem(TOKEN_KEY) ?? info.token }
  } catch {
    return null
  }
}

/** The session in storage, whoever it belongs to: what a sign-out ends on the server. */
export function storedCredentials(): { token: string; address: string } | null {
  const token = getToken()
  const info = store.get().userInfo
  if (token && info) return { token, address: info.address }
  try {
    const stored = JSON.parse(localStorage.getItem(USERINFO_KEY) ?? 'null') as LoginData | null
    return stored?.token && stored.address ? { token: stored.token, address: stored.address } : null
  } catch {
    return null
  }
}

export const isSignedOut = () => localStorage.getItem(SIGNED_OUT_KEY) === '1'
export const setSignedOut = (value: boolean) =>
  value ? localStorage.setItem(SIGNED_OUT_KEY, '1') : localStorage.removeItem(SIGNED_OUT_KEY)

export const getToken = () => sessionStorage.getItem(TOKEN_KEY)
export const useSession = store.use
/** Calls `listener` after every change of the login state (the live channel's identity follows it). */
export const onSessionChange = store.subscribe

/** The connected wallet address, sent as the User-Address header. */
export const getWalletAddress = address.get
export const setWalletAddress = address.set
export const onWalletAddressChange = address.subscribe

/** The address of the signed-in user, or null: user data is only asked for with a session. */
export function useSignedInAddress() {
  const { loginStatus, userInfo } = useSession()
  return loginStatus && userInfo ? userInfo.address : null
}
