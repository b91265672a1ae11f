import { api, Code, LOGIN_TYPE } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NONCE_TTL_MS } from '../src/modules/auth/service.ts'
import { call, createTestApp, dbKind, login, seedRoot, type TestContext, TestWallet } from './helpers.ts'

describe(`login (${dbKind})`, () => {
  let t: TestContext
  let root: TestWallet
  beforeAll(async () => {
    t = await createTestApp()
    root = await seedRoot(t.db)
  })
  afterAll(() => t.close())

  const userCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const sessionCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('is_reg answers 1 for a registered address and 0 otherwise', async () => {
    expect((await call(t.app, api.isReg, { address: root.address })).data).toEqual({ is_reg: 1 })
    expect((await call(t.app, api.isReg, { address: new TestWallet().address })).data).toEqual({ is_reg: 0 })
  })

  it('issues a Sign-In-With-Solana message with a nonce, expiring within 5 minutes', async () => {
    const wallet = new TestWallet()
    const before = Date.now()
    const res = await call(t.app, api.nonce, { address: wallet.address }, { headers: { host: 'localhost:3000' } })
    expect(res.code).toBe(Code.OK)
    const data = res.data as { message: string; nonce: string; expires_at: string }
    expect(data.message).toContain(`localhost:3000 wants you to sign in with your Solana account:\n${wallet.address}`)
    expect(data.message).toContain(`Nonce: ${data.nonce}`)
    expect(data.message).toContain('Chain ID: localnet')
    const expires = Date.parse(data.expires_at)
    expect(expires - before).toBeGreaterThan(0)
    expect(expires - before).toBeLessThanOrEqual(NONCE_TTL_MS + 1000)
  })

  it('binds a new wallet to its inviter and logs it in, then logs in again without an invite code', async () => {
    const wallet = new TestWallet()
    const first = await login(t.app, wallet, root.address)
    expect(first.code).toBe(Code.OK)
    expect(first.msg).toBe('Login successful')
    const data = first.data as { token: string; address: string; parent_address: string; invite_code: string }
    expect(data.address).toBe(wallet.address)
    expect(data.parent_address).toBe(root.address)
    expect(data.invite_code).toBe(wallet.address)
    expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // The token is stored hashed, never as it is.
    const stored = await t.db.selectFrom('sessions').select('token_hash').execute()
    expect(stored.map((s) => s.token_hash)).not.toContain(data.token)

    const again = await login(t.app, wallet, '')
    expect(again.code).toBe(Code.OK)
    expect((again.data as { parent_address: string }).parent_address).toBe(root.address)

    // Binding is permanent: another invite code later changes nothing.
    const other = new TestWallet()
    expect((await login(t.app, other, root.address)).code).toBe(Code.OK)
    const third = await login(t.app, wallet, other.address)
    expect((third.data as { parent_address: string }).parent_address).toBe(root.address)
  })

  it('user/index answers the session user and -403 without a valid session', async () => {
    const wallet = new TestWallet()
    const { token } = (await login(t.app, wallet, root.address)).data as { token: string }
    const me = await call(t.app, api.userIndex, {}, { token, address: wallet.address })
    expect(me.code).toBe(Code.OK)
    expect(me.data).toMatchObject({ address: wallet.address, parent_address: root.address })
    expect(me.data).not.toHaveProperty('token')

    expect((await call(t.app, api.userIndex, {})).code).toBe(Code.SESSION_INVALID)
    expect((await call(t.app, api.userIndex, {}, { token, address: root.address })).code).toBe(Code.SESSION_INVALID)
    expect((await call(t.app, api.userIndex, {}, { token: `${token}x`, address: wallet.address })).code).toBe(
      Code.SESSION_INVALID,
    )
    const expired = await call(t.app, api.userIndex, {}, { token, address: wallet.address })
    expect(expired.code).toBe(Code.OK)
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute()
    const after = await call(t.app, api.userIndex, {}, { token, address: wallet.address, lang: 'en' })
    expect(after).toMatchObject({ code: Code.SESSION_INVALID, msg: 'Your session has expired, please log in again' })
  })

  describe('refusals change nothing', () => {
    const refused = async (body: Record<string, unknown>, code: number, msg: string) => {
      const [users, sessions] = [await userCount(), await sessionCount()]
      const res = await call(t.app, api.registerThird, body)
      expect(res).toMatchObject({ code, msg, data: null })
      expect(await userCount()).toBe(users)
      expect(await sessionCount()).toBe(sessions)
    }
    const signed = async (wallet: TestWallet, address = wallet.address) => {
      const { message } = (await call(t.app, api.nonce, { address })).data as { message: string }
      return { type: LOGIN_TYPE, address, sign: wallet.sign(message), invite_code: root.address, message }
    }

    it('invalid base58 address', async () => {
      const body = await signed(new TestWallet())
      await refused({ ...body, address: 'not-an-address' }, Code.INVALID, 'Invalid wallet address')
      expect((await call(t.app, api.isReg, { address: '0OIl' })).code).toBe(Code.INVALID)
      expect((await call(t.app, api.nonce, { address: root.address.slice(0, 20) })).code).toBe(Code.INVALID)
    })
    it('bad hex', async () => {
      const body = await signed(new TestWallet())
      await refused({ ...body, sign: 'zz' }, Code.INVALID, 'The signature must be hex-encoded')
      await refused({ ...body, sign: body.sign.slice(2) }, Code.INVALID, 'The signature must be hex-encoded')
    })
    it('wrong signature', async () => {
      const wallet = new TestWallet()
      const body = await signed(wallet)
      const other = new TestWallet()
      await refused(
        { ...body, sign: other.sign(body.message) },
        Code.FAIL,
        'The signature does not match the wallet address',
      )
    })
    it('replayed nonce', async () => {
      const wallet = new TestWallet()
      const body = await signed(wallet)
      expect((await call(t.app, api.registerThird, body)).code).toBe(Code.OK)
      await refused(body, Code.FAIL, 'The sign-in message has expired or was already used, please sign again')
    })
    it('expired nonce', async () => {
      const wallet = new TestWallet()
      const body = await signed(wallet)
      await t.db
        .updateTable('login_nonces')
        .set({ expires_at: new Date(Date.now() - 1) })
        .where('address', '=', wallet.address)
        .execute()
      await refused(body, Code.FAIL, 'The sign-in message has expired or was already used, please sign again')
    })
    it('a message this server never issued', async () => {
      const wallet = new TestWallet()
      const body = await signed(wallet)
      const forged = body.message.replace(/Nonce: \w+/, 'Nonce: 0123456789abcdef')
      await refused(
        { ...body, message: forged, sign: wallet.sign(forged) },
        Code.FAIL,
        'The sign-in message has expired or was already used, please sign again',
      )
      await refused(
        { ...body, message: 'hello', sign: wallet.sign('hello') },
        Code.INVALID,
        'The sign-in message is not valid, please sign again',
      )
    })
    it('message for another address or domain', async () => {
      const wallet = new TestWallet()
      const other = new TestWallet()
      const foreign = await signed(other)
      await refused(
        { ...foreign, address: wallet.address, sign: wallet.sign(foreign.message) },
        Code.FAIL,
        'The sign-in message was made for another address or site',
      )
      const body = await signed(wallet)
      const evil = body.message.replace('localhost:3000', 'evil.example')
      await refused(
        { ...body, message: evil, sign: wallet.sign(evil) },
        Code.FAIL,
        'The sign-in message was made for another address or site',
      )
    })
    it('unknown domain in the Host header falls back to the configured one', async () => {
      const res = await call(t.app, api.nonce, { address: root.address }, { headers: { host: 'evil.example' } })
      expect((res.data as { message: string }).message.startsWith('localhost:3000 wants you')).toBe(true)
    })
    it('self-invite, unknown inviter and a missing invite code → code 2 (not bound)', async () => {
      const wallet = new TestWallet()
      await refused(
        { ...(await signed(wallet)), invite_code: wallet.address },
        Code.NOT_BOUND,
        'You cannot use your own address as the invitation code',
      )
      await refused(
        { ...(await signed(wallet)), invite_code: new TestWallet().address },
        Code.NOT_BOUND,
        'The invitation code does not belong to a registered user',
      )
      await refused(
        { ...(await signed(wallet)), invite_code: 'garbage' },
        Code.NOT_BOUND,
        'The invitation code does not belong to a registered user',
      )
      await refused(
        { ...(await signed(wallet)), invite_code: '' },
        Code.NOT_BOUND,
        'Please enter an invitation code to bind your referrer',
      )
      expect((await call(t.app, api.isReg, { address: wallet.address })).data).toEqual({ is_reg: 0 })
    })
    it('wrong types, unknown fields, wrong login type', async () => {
      const body = await signed(new TestWallet())
      await refused({ ...body, type: 3 }, Code.INVALID, 'Invalid request: /type must be string')
      await refused({ ...body, type: '4' }, Code.INVALID, 'Invalid request: /type must be equal to constant')
      await refused(
        { ...body, extra: true },
        Code.INVALID,
        "Invalid request: body must NOT have additional properties 'extra'",
      )
      await refused({ ...body, sign: 123 }, Code.INVALID, 'Invalid request: /sign must be string')
    })
  })

  it('the same signed message used by many concurrent requests logs in once', async () => {
    const wallet = new TestWallet()
    const { message } = (await call(t.app, api.nonce, { address: wallet.address })).data as { message: string }
    const body = {
      type: LOGIN_TYPE,
      address: wallet.address,
      sign: wallet.sign(message),
      invite_code: root.address,
      message,
    }
    const results = await Promise.all(Array.from({ length: 20 }, () => call(t.app, api.registerThird, body)))
    expect(results.filter((r) => r.code === Code.OK)).toHaveLength(1)
    const users = await t.db.selectFrom('users').select('id').where('address', '=', wallet.address).execute()
    expect(users).toHaveLength(1)
  })

  it('answers in the request language, zh by default', async () => {
    const address = 'bad'
    expect((await call(t.app, api.isReg, { address }, { lang: 'ja' })).msg).toBe('ウォレットアドレスが無効です')
    expect((await call(t.app, api.isReg, { address }, { lang: 'ko-KR,ko;q=0.9' })).msg).toBe('잘못된 지갑 주소입니다')
    expect((await call(t.app, api.isReg, { address }, { lang: 'vi' })).msg).toBe('Địa chỉ ví không hợp lệ')
    expect((await call(t.app, api.isReg, { address }, { headers: { 'accept-language': '' } })).msg).toBe('钱包地址无效')
  })
})
