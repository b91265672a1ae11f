import type { LoginData } from '@solpledge/contract/client'
import { beforeEach, describe, expect, it } from 'vitest'
import { MemoryStorage } from './memory-storage.ts'
import {
  clearSession,
  isSignedOut,
  markUnbound,
  saveLogin,
  setSignedOut,
  setWalletAddress,
  storedCredentials,
  storedSession,
} from './session.ts'

const user: LoginData = {
  id: '1',
  address: 'Addr',
  parent_address: 'Parent',
  invite_code: 'Addr',
  created_at: '2024-07-17T00:00:00.000Z',
  token: 'secret',
  expires_at: '2024-07-18T00:00:00.000Z',
}

const keys = () => ({
  userinfo: localStorage.getItem('userinfo'),
  root: localStorage.getItem('root'),
  token: sessionStorage.getItem('token'),
})

describe('session storage', () => {
  beforeEach(() => {
    globalThis.localStorage = new MemoryStorage()
    globalThis.sessionStorage = new MemoryStorage()
    setWalletAddress(user.address)
    clearSession()
  })

  it('stores userinfo, root and token on login', () => {
    expect(saveLogin(user)).toBe(true)
    expect(JSON.parse(localStorage.getItem('userinfo') ?? '')).toEqual(user)
    expect(JSON.parse(localStorage.getItem('root') ?? '')).toEqual({ loginStatus: true, isBind: true, userInfo: user })
    expect(sessionStorage.getItem('token')).toBe('secret')
  })

  it('persists an unbound state', () => {
    markUnbound(user.address)
    expect(JSON.parse(localStorage.getItem('root') ?? '')).toEqual({
      loginStatus: false,
      isBind: false,
      userInfo: null,
    })
  })

  it('writes nothing back for an account that is no longer connected: a clear stays a clear', () => {
    // The wallet disconnected (or switched) while a sign-in or a bind check for the old account was on its way.
    setWalletAddress(null)
    clearSession()
    expect(saveLogin(user)).toBe(false)
    markUnbound(user.address)
    expect(keys()).toEqual({ userinfo: null, root: null, token: null })
    setWalletAddress('Other')
    expect(saveLogin(user)).toBe(false)
    markUnbound(user.address)
    expect(keys()).toEqual({ userinfo: null, root: null, token: null })
  })

  it("finds the session an earlier page stored for the account, and only that account's", () => {
    saveLogin(user)
    expect(storedSession(user.address)).toEqual(user)
    expect(storedSession('Other')).toBeNull()
    // A new tab has no token of its own: the one in userinfo is used.
    sessionStorage.clear()
    expect(storedSession(user.address)).toEqual(user)
    expect(storedCredentials()).toEqual({ token: 'secret', address: user.address })
    // Unbound (root not signed in) or unreadable: none.
    localStorage.setItem('root', '{"loginStatus":false}')
    expect(storedSession(user.address)).toBeNull()
    localStorage.setItem('root', '{')
    expect(storedSession(user.address)).toBeNull()
  })

  it('clears only the session keys: the language, the demo wallet and the signed-out mark survive', () => {
    localStorage.setItem('i18nextLng', 'ko')
    localStorage.setItem('solpledge.demoWallet', '{}')
    setSignedOut(true)
    saveLogin(user)
    clearSession()
    expect(keys()).toEqual({ userinfo: null, root: null, token: null })
    expect(storedCredentials()).toBeNull()
    expect(localStorage.getItem('i18nextLng')).toBe('ko')
    expect(localStorage.getItem('solpledge.demoWallet')).toBe('{}')
    expect(isSignedOut()).toBe(true)
    setSignedOut(false)
    expect(isSignedOut()).toBe(false)
  })
})
