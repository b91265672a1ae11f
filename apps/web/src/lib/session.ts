import type { LoginData } from '@solpledge/contract/client'
import { createStore } from './store.ts'

/** Login state (SPEC §4), persisted under localStorage 'root'. */
export interface Session {
  loginStatus: boolean
  isBind: boolean
  userInfo: LoginData | null
}

/** Storage keys (SPEC §3). Only these are ever cleared: the language and demo-wallet keys survive. */
export const ROOT_KEY = 'root'
export const USERINFO_KEY = 'userinfo'
export const TOKEN_KEY = 'token'

const signedOut: Session = { loginStatus: false, isBind: false, userInfo: null }
const store = createStore<Session>(signedOut)
const address = createStore<string | null>(null)

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

export function saveLogin(data: LoginData) {
  localStorage.setItem(USERINFO_KEY, JSON.stringify(data))
  sessionStorage.setItem(TOKEN_KEY, data.token)
  persist({ loginStatus: true, isBind: true, userInfo: data })
}

/** The wallet is connected but not bound to a referrer: the bind dialog shows. */
export function markUnbound() {
  persist({ ...store.get(), isBind: false })
}

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
