import { api, Code } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, createTestApp, dbKind, member, seedRoot, type TestContext, type TestWallet } from './helpers.ts'

// The production default trusts a checked session for SESSION_CACHE_MS; the other API tests turn it off.
const TTL_MS = 1500
// The sessions' clock, moved by the tests instead of waiting.
let clock = Date.now()
const now = () => clock

describe(`session cache (${dbKind})`, () => {
  let t: TestContext
  let root: TestWallet
  beforeAll(async () => {
    t = await createTestApp({ sessionCacheMs: TTL_MS }, { now })
    root = await seedRoot(t.db)
  })
  afterAll(() => t.close())

  const signIn = () => member(t.app, root.address)
  const index = (auth: { token: string; address: string }) => call(t.app, api.userIndex, {}, auth)
  const revokeInDatabase = (userId: string) =>
    t.db.updateTable('sessions').set({ revoked_at: new Date() }).where('user_id', '=', userId).execute()

  it('trusts a checked session for the cache time, then checks the database again', async () => {
    const { id, auth } = await signIn()
    expect((await index(auth)).code).toBe(Code.OK)
    // Revoked by another server instance: this one still trusts its check until the cache time has passed.
    await revokeInDatabase(id)
    expect((await index(auth)).code).toBe(Code.OK)
    clock += TTL_MS - 1
    expect((await index(auth)).code).toBe(Code.OK)
    clock += 1
    expect((await index(auth)).code).toBe(Code.SESSION_INVALID)
  })

  it('forgets a user at once when this server revokes their sessions', async () => {
    const { id, auth } = await signIn()
    const other = await signIn()
    expect((await index(auth)).code).toBe(Code.OK)
    expect((await index(other.auth)).code).toBe(Code.OK)
    await revokeInDatabase(id)
    t.app.sessions.forgetUser(id)
    expect((await index(auth)).code).toBe(Code.SESSION_INVALID)
    expect((await index(other.auth)).code).toBe(Code.OK)
  })

  it('still refuses a cached token sent with another address', async () => {
    const { auth } = await signIn()
    expect((await index(auth)).code).toBe(Code.OK)
    expect((await index({ ...auth, address: root.address })).code).toBe(Code.SESSION_INVALID)
    expect((await index(auth)).code).toBe(Code.OK)
  })

  it('never trusts a session past its expiry', async () => {
    const { id, auth } = await signIn()
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(clock + 500) })
      .where('user_id', '=', id)
      .execute()
    expect((await index(auth)).code).toBe(Code.OK)
    // Within the cache time, but past the expiry.
    clock += 500
    expect((await index(auth)).code).toBe(Code.SESSION_INVALID)
  })
})
