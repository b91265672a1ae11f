import type { LoginData } from '@solpledge/contract/client'
import { beforeEach, describe, expect, it } from 'vitest'
import { MemoryStorage } from './memory-storage.ts'
import { clearSession, markUnbound, saveLogin } from './session.ts'

const user: LoginData = {
  id: '1',
  address: 'Addr',
  parent_address: 'Parent',
  invite_code: 'Addr',
  created_at: '2024-07-17T00:00:00.000Z',
  token: 'secret',
  expires_at: '2024-07-18T00:00:00.000Z',
}

describe('session storage', () => {
  beforeEach(() => {
    globalThis.localStorage = new MemoryStorage()
    globalThis.sessionStorage = new MemoryStorage()
    clearSession()
  })

  it('stores userinfo, root and token on login', () => {
    saveLogin(user)
    expect(JSON.parse(localStorage.getItem('userinfo') ?? '')).toEqual(user)
    expect(JSON.parse(localStorage.getItem('root') ?? '')).toEqual({ loginStatus: true, isBind: true, userInfo: user })
    expect(sessionStorage.getItem('token')).toBe('secret')
  })

  it('persists an unbound state', () => {
    markUnbound()
    expect(JSON.parse(localStorage.getItem('root') ?? '')).toEqual({
      loginStatus: false,
      isBind: false,
      userInfo: null,
    })
  })

  it('clears only the session keys: the language and the demo wallet survive', () => {
    localStorage.setItem('i18nextLng', 'ko')
    localStorage.setItem('solpledge.demoWallet', '{}')
    saveLogin(user)
    clearSession()
    expect(localStorage.getItem('userinfo')).toBeNull()
    expect(localStorage.getItem('root')).toBeNull()
    expect(sessionStorage.getItem('token')).toBeNull()
    expect(localStorage.getItem('i18nextLng')).toBe('ko')
    expect(localStorage.getItem('solpledge.demoWallet')).toBe('{}')
  })
})
