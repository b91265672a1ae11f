import { createSignInMessageText, parseSignInMessageText } from '@solana/wallet-standard-util'
import { api, Code, LOGIN_TYPE, type SignInInput } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.ts'
import { hashToken } from '../src/modules/auth/crypto.ts'
import { SESSION_TOUCH_MS } from '../src/modules/auth/session.ts'
import { call, createTestApp, dbKind, member, seedRoot, type TestContext, TestWallet, testConfig } from './helpers.ts'

const HOUR = 3_600_000
const CACHE_MS = 60_000

/**
 * Sessions users control (docs/architecture.md "Login and sessions"): logout, sign out everywhere, the idle and the
 * absolute end, measured by the app's clock, which the test moves; the session cache is on, as in production.
 */
describe(`sessions (${dbKind})`, () => {
  let t: TestContext
  let root: TestWallet
  let clock = Date.now()
  const now = () => clock
  beforeAll(async () => {
    t = await createTestApp({ sessionCacheMs: CACHE_MS, sessionIdleHours: 24, sessionTtlHours: 168 }, { now })
    root = await seedRoot(t.db)
  })
  afterAll(() => t.close())

  const index = (auth: { token: string; address: string }, app = t.app) => call(app, api.userIndex, {}, auth)
  const logout = (auth: { token: string; address: string }) => call(t.app, api.logout, {}, auth)
  const lastSeen = async (token: string) =>
    (
      await t.db
        .selectFrom('sessions')
        .select('last_seen_at')
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirstOrThrow()
    ).last_seen_at.getTime()

  it('logout ends the session: its token is refused at once here, and within the cache time on another instance', async () => {
    const other = await buildApp({
      db: t.db,
      config: testConfig({ sessionCacheMs: CACHE_MS }),
      platform: t.platform,
      now,
    })
    try {
      const user = await member(t.app, root.address)
      const second = await member(t.app, root.address)
      expect((await index(user.auth)).code).toBe(Code.OK)
      // Another instance checked the session and trusts it from memory for its cache time.
      expect((await index(user.auth, other)).code).toBe(Code.OK)

      const res = await logout(user.auth)
      expect(res).toMatchObject({ code: Code.OK, msg: 'Signed out', data: {} })
      expect((await index(user.auth)).code).toBe(Code.SESSION_INVALID)
      expect((await logout(user.auth)).code).toBe(Code.SESSION_INVALID)
      expect((await index(user.auth, other)).code).toBe(Code.OK)
      clock += CACHE_MS
      expect((await index(user.auth, other)).code).toBe(Code.SESSION_INVALID)
      // Nobody else's session ended.
      expect((await index(second.auth)).code).toBe(Code.OK)
      expect((await index(second.auth, other)).code).toBe(Code.OK)
    } finally {
      await other.close()
    }
  })

  it('a sign-in with end_other_sessions ends every other session of the wallet, and only those', async () => {
    const first = await member(t.app, root.address)
    const again = async (end?: boolean) => {
      const nonce = await call(t.app, api.nonce, { address: first.address })
      const message = (nonce.data as { message: string }).message
      const res = await call(t.app, api.registerThird, {
        type: LOGIN_TYPE,
        address: first.address,
        sign: first.wallet.sign(message),
        message,
        ...(end === undefined ? {} : { end_other_sessions: end }),
      })
      expect(res.code).toBe(Code.OK)
      return { token: (res.data as { token: string }).token, address: first.address }
    }
    const bystander = await member(t.app, root.address)
    const second = await again(false)
    expect((await index(first.auth)).code).toBe(Code.OK)
    expect((await index(second)).code).toBe(Code.OK)
    expect((await index(bystander.auth)).code).toBe(Code.OK)

    const third = await again(true)
    expect((await index(first.auth)).code).toBe(Code.SESSION_INVALID)
    expect((await index(second)).code).toBe(Code.SESSION_INVALID)
    expect((await index(third)).code).toBe(Code.OK)
    expect((await index(bystander.auth)).code).toBe(Code.OK)
  })

  it('ends after the idle time without a call; a call keeps it alive, writing last_seen_at at most once per interval', async () => {
    const user = await member(t.app, root.address)
    const opened = await lastSeen(user.auth.token)
    expect(opened).toBe(clock)

    // Calls within the touch interval write nothing (the cache is passed by moving the clock past it).
    clock += CACHE_MS
    expect((await index(user.auth)).code).toBe(Code.OK)
    expect(await lastSeen(user.auth.token)).toBe(opened)
    clock += SESSION_TOUCH_MS
    expect((await index(user.auth)).code).toBe(Code.OK)
    expect(await lastSeen(user.auth.token)).toBe(clock)

    // 23 h later it is alive, and that call counts: another 23 h later too.
    clock += 23 * HOUR
    expect((await index(user.auth)).code).toBe(Code.OK)
    clock += 23 * HOUR
    expect((await index(user.auth)).code).toBe(Code.OK)
    // 24 h without a call: it has ended, also for a cached check (the cache never outlives the idle end).
    clock += 24 * HOUR
    expect((await index(user.auth)).code).toBe(Code.SESSION_INVALID)

    const cached = await member(t.app, root.address)
    expect((await index(cached.auth)).code).toBe(Code.OK)
    clock += 24 * HOUR
    expect((await index(cached.auth)).code).toBe(Code.SESSION_INVALID)
  })

  it('ends at its absolute lifetime however active it is', async () => {
    const user = await member(t.app, root.address)
    for (let hours = 12; hours < 168; hours += 12) {
      clock += 12 * HOUR
      expect((await index(user.auth)).code, `${hours} h after sign-in`).toBe(Code.OK)
    }
    clock += 12 * HOUR
    expect((await index(user.auth)).code).toBe(Code.SESSION_INVALID)
  })

  it("a nonce asked for without an address signs in the address a wallet's signIn fills in, once", async () => {
    const wallet = new TestWallet()
    const nonce = await call(t.app, api.nonce, {}, { headers: { host: 'localhost:3000' } })
    expect(nonce.code).toBe(Code.OK)
    const input = (nonce.data as { sign_in: SignInInput }).sign_in
    expect(input).not.toHaveProperty('address')
    // What a wallet's solana:signIn signs: the input's fields with its own address.
    const message = createSignInMessageText({ ...input, address: wallet.address })
    expect(parseSignInMessageText(message)).toMatchObject({ ...input, address: wallet.address })
    const body = { type: LOGIN_TYPE, address: wallet.address, sign: wallet.sign(message), invite_code: root.address }

    // Any field changed, or the text written otherwise, is refused and spends nothing.
    for (const forged of [
      createSignInMessageText({ ...input, address: wallet.address, issuedAt: new Date(clock).toISOString() }),
      createSignInMessageText({ ...input, address: wallet.address, chainId: 'mainnet' }),
      `${message}\n`,
    ]) {
      const res = await call(t.app, api.registerThird, { ...body, sign: wallet.sign(forged), message: forged })
      expect(res.code, forged).not.toBe(Code.OK)
    }
    const res = await call(t.app, api.registerThird, { ...body, message })
    expect(res.code).toBe(Code.OK)
    expect(res.data).toMatchObject({ address: wallet.address, parent_address: root.address })
    // Once: another wallet cannot fill in the same nonce.
    const other = new TestWallet()
    const reuse = createSignInMessageText({ ...input, address: other.address })
    const again = await call(t.app, api.registerThird, {
      ...body,
      address: other.address,
      sign: other.sign(reuse),
      message: reuse,
    })
    expect(again).toMatchObject({ code: Code.FAIL, key: 'auth.nonceExpired' })
  })
})
