// @vitest-environment happy-dom
import { WalletContext, type WalletContextState } from '@solana/wallet-adapter-react'
import type { LoginData } from '@solpledge/contract/client'
import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { isSignedOut, useSession } from '@/lib/session.ts'
import { ADDRESS, fakeApi, renderApp } from '@/test/harness.tsx'
import { WalletLogin } from './wallet-login.tsx'

const stored: LoginData = {
  id: '7',
  address: ADDRESS,
  parent_address: null,
  invite_code: ADDRESS,
  created_at: '2026-11-01T00:00:00.000Z',
  token: 'stored-token',
  expires_at: '2026-11-08T00:00:00.000Z',
}

/** What an earlier page left in storage when it was signed in. */
function storeSession(data = stored) {
  localStorage.setItem('userinfo', JSON.stringify(data))
  localStorage.setItem('root', JSON.stringify({ loginStatus: true, isBind: true, userInfo: data }))
  sessionStorage.setItem('token', data.token)
}

const storage = () => ({
  userinfo: localStorage.getItem('userinfo'),
  root: localStorage.getItem('root'),
  token: sessionStorage.getItem('token'),
})

/** The wallet adapter's context as a connected wallet (`address`) or none (null) gives it. */
function walletContext(address: string | null, signMessage: WalletContextState['signMessage']) {
  return {
    publicKey: address ? { toBase58: () => address } : null,
    connected: address !== null,
    wallet: null,
    signMessage,
    signIn: undefined,
    select: vi.fn(),
  } as unknown as WalletContextState
}

function SignedInAs() {
  const { loginStatus, userInfo } = useSession()
  return <p data-testid="signed-in">{loginStatus ? userInfo?.address : 'nobody'}</p>
}

async function renderLogin(address: string | null, signMessage = vi.fn(async () => new Uint8Array(64).fill(1))) {
  const onReset = vi.fn()
  const tree = (current: string | null) => (
    <WalletContext value={walletContext(current, signMessage)}>
      <WalletLogin inviteCode="" onReset={onReset} />
      <SignedInAs />
    </WalletContext>
  )
  const view = await renderApp(tree(address))
  return { onReset, signMessage, connect: (next: string | null) => view.rerender(tree(next)) }
}

const user = (token: string) => ({ ...stored, token })

/** A sign-in message for ADDRESS, as the server words it. */
const NONCE = {
  message: 'sign me',
  nonce: 'n',
  expires_at: '2099-01-01T00:00:00Z',
  sign_in: {
    domain: 'localhost',
    address: ADDRESS,
    statement: 'Sign in to solpledge',
    version: '1',
    chainId: 'solana:localnet',
    nonce: 'n',
    issuedAt: '2099-01-01T00:00:00Z',
    expirationTime: '2099-01-01T00:05:00Z',
  },
}

describe('the session at start-up', () => {
  it('restores a stored session the server still accepts: no signature, no toast', async () => {
    storeSession()
    const calls = fakeApi({ '/user/user/index': () => ({ data: stored }) })
    const { signMessage } = await renderLogin(ADDRESS)
    await waitFor(() => expect(screen.getByTestId('signed-in').textContent).toBe(ADDRESS))
    expect(calls.map((c) => c.path)).toEqual(['/user/user/index'])
    expect(calls[0]?.headers).toMatchObject({ 'User-Token': 'stored-token', 'User-Address': ADDRESS })
    expect(signMessage).not.toHaveBeenCalled()
    expect(screen.queryAllByTestId('toast')).toEqual([])
    expect(JSON.parse(storage().userinfo ?? '{}')).toEqual(stored)
    expect(storage().token).toBe('stored-token')
    await waitFor(() => expect(screen.queryByTestId('loading-overlay')).toBeNull())
  })

  it('signs in again, with one signature and the success toast, when the server ended the stored session', async () => {
    storeSession()
    const calls = fakeApi({
      '/user/user/index': () => ({ code: -403, msg: 'Your session has expired, please log in again' }),
      '/user/login/logout': () => ({ code: -403, msg: 'Your session has expired, please log in again' }),
      '/user/login/is_reg': () => ({ data: { is_reg: 1 } }),
      '/user/login/nonce': () => ({ data: NONCE }),
      '/user/login/registerThird': () => ({ data: user('fresh-token'), msg: 'Login successful' }),
    })
    const { signMessage } = await renderLogin(ADDRESS)
    await waitFor(() => expect(storage().token).toBe('fresh-token'))
    expect(signMessage).toHaveBeenCalledTimes(1)
    expect((await screen.findAllByTestId('toast')).map((t) => t.textContent)).toEqual(['Login successful'])
    expect(calls.map((c) => c.path)).toContain('/user/login/registerThird')
  })

  it("does not restore another account's session: it ends it and signs in the connected one", async () => {
    storeSession({ ...stored, address: 'OtherAccount111111111111111111111111111111', token: 'other-token' })
    const calls = fakeApi({
      '/user/login/logout': () => ({ data: {} }),
      '/user/login/is_reg': () => ({ data: { is_reg: 1 } }),
      '/user/login/nonce': () => ({ data: NONCE }),
      '/user/login/registerThird': () => ({ data: user('fresh-token'), msg: 'Login successful' }),
    })
    await renderLogin(ADDRESS)
    await waitFor(() => expect(storage().token).toBe('fresh-token'))
    const logout = calls.find((c) => c.path === '/user/login/logout')
    expect(logout?.headers).toMatchObject({ 'User-Token': 'other-token' })
    expect(calls.map((c) => c.path)).not.toContain('/user/user/index')
  })

  it('a disconnect ends the session on the server and here, goes home, and sticks', async () => {
    storeSession()
    const calls = fakeApi({
      '/user/user/index': () => ({ data: stored }),
      '/user/login/logout': () => ({ data: {} }),
    })
    const { onReset, connect } = await renderLogin(ADDRESS)
    await waitFor(() => expect(screen.getByTestId('signed-in').textContent).toBe(ADDRESS))
    connect(null)
    await waitFor(() => expect(screen.getByTestId('signed-in').textContent).toBe('nobody'))
    expect(onReset).toHaveBeenCalledTimes(1)
    expect(storage()).toEqual({ userinfo: null, root: null, token: null })
    expect(isSignedOut()).toBe(true)
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/user/login/logout'))
    expect(calls.find((c) => c.path === '/user/login/logout')?.headers).toMatchObject({
      'User-Token': 'stored-token',
      'User-Address': ADDRESS,
    })
  })
})
