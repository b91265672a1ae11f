// A login is one transaction (modules/auth/service.ts `login`): the nonce spent, the new member bound and the session
// opened commit together, so a login whose database connection breaks before its COMMIT left nothing behind and runs
// again (db/transient.ts) instead of answering 500 with its nonce already spent; the console's sign-in likewise
// (modules/admin/session.ts). PostgreSQL only (a *.pg.test.ts file): the connection faults are injected at the
// database boundary (DbFaultHook), as the simulator does.
import { api, Code, LOGIN_TYPE } from '@solpledge/contract'
import { CompiledQuery } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/app.ts'
import { type Database, openDatabase } from '../src/db/index.ts'
import type { DbFaultHook } from '../src/db/transient.ts'
import { adminSignIn, allowAdmin } from './admin.ts'
import { call, createSeededApp, login, type SeededApp, TestWallet } from './helpers.ts'

describe('a login cut off by a lost database connection (postgres)', () => {
  let t: SeededApp
  let faulty: Database
  let app: App
  /** The statement to lose the connection after (its effects rolled back, as the server does), once. */
  let loseAfter: RegExp | null = null
  beforeAll(async () => {
    t = await createSeededApp()
    const faults: DbFaultHook = {
      async execute(sql, state, run) {
        if (!loseAfter?.test(sql)) return run()
        loseAfter = null
        await run()
        if (state.inTransaction) await state.connection.executeQuery(CompiledQuery.raw('rollback'))
        throw Object.assign(new Error('connection to the database lost (test)'), { code: '08006' })
      },
      commitStatus: async () => undefined,
    }
    faulty = await openDatabase({ url: t.url as string, faults })
    app = await buildApp({ db: faulty, config: t.app.config, platform: t.platform })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    await faulty.destroy()
    await t.close()
  })

  const sessionsOf = async (address: string) =>
    (await t.db.selectFrom('sessions').select('id').where('address', '=', address).execute()).length

  it('a first login whose session insert lost its answer runs again: one member, one session, the nonce spent', async () => {
    const wallet = new TestWallet()
    loseAfter = /insert into "sessions"/
    const res = await login(app, wallet, t.root.address)
    expect(loseAfter).toBeNull()
    expect(res.code).toBe(Code.OK)
    expect(await sessionsOf(wallet.address)).toBe(1)
    const users = await t.db.selectFrom('users').select('parent_id').where('address', '=', wallet.address).execute()
    expect(users).toEqual([{ parent_id: t.root.id }])
    const nonces = await t.db
      .selectFrom('login_nonces')
      .select('used_at')
      .where('address', '=', wallet.address)
      .execute()
    expect(nonces.map((n) => n.used_at !== null)).toEqual([true])
  })

  it('the spend of the nonce itself lost its answer: the login runs again and succeeds', async () => {
    const wallet = new TestWallet()
    loseAfter = /update "login_nonces"/
    const res = await login(app, wallet, t.root.address)
    expect(loseAfter).toBeNull()
    expect(res.code).toBe(Code.OK)
    expect(await sessionsOf(wallet.address)).toBe(1)
  })

  it('a refused binding still spends the nonce', async () => {
    const wallet = new TestWallet()
    const nonce = await call(app, api.nonce, { address: wallet.address })
    const message = (nonce.data as { message: string }).message
    const body = { type: LOGIN_TYPE, address: wallet.address, sign: wallet.sign(message), message }
    expect((await call(app, api.registerThird, { ...body, invite_code: '' })).code).toBe(Code.NOT_BOUND)
    const again = await call(app, api.registerThird, { ...body, invite_code: t.root.address })
    expect(again.key).toBe('auth.nonceExpired')
    expect(await sessionsOf(wallet.address)).toBe(0)
  })

  it("an operator's sign-in whose session insert lost its answer runs again: one admin session", async () => {
    const wallet = await allowAdmin(t.db, 'admin')
    loseAfter = /insert into "admin_sessions"/
    const res = await adminSignIn(app, wallet)
    expect(loseAfter).toBeNull()
    expect(res.code).toBe(Code.OK)
    const sessions = await t.db
      .selectFrom('admin_sessions')
      .select('id')
      .where('address', '=', wallet.address)
      .execute()
    expect(sessions).toHaveLength(1)
  })
})
