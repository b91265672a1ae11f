import fs from 'node:fs'
import path from 'node:path'
import {
  type AdminLoginData,
  type AdminRole,
  api,
  Code,
  type ConfigVersion,
  formatAmount,
  type RouteDef,
  roleAtLeast,
} from '@solpledge/contract'
import { USDT } from '@solpledge/test-fixtures'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syncConfiguredAdmins } from '../src/modules/admin/admins.ts'
import { seedBusinessConfig } from '../src/modules/config/service.ts'
import { seedNotices } from '../src/modules/notice/seed.ts'
import {
  adminSignIn,
  allowAdmin,
  auditCount,
  PNG_1PX,
  reviewedUsdtWithdrawals,
  signedInAdmin,
  type TestAdmin,
  upload,
} from './admin.ts'
import {
  addOffChainAssets,
  call,
  createTestApp,
  dbKind,
  download,
  fundedMember,
  login,
  type Member,
  member,
  realCluster,
  seedRoot,
  type TestContext,
  TestWallet,
  tableNames,
} from './helpers.ts'

type RouteName = keyof typeof api
type Body = Record<string, unknown>

/** Every operator console route: the contract's /admin/ paths except the Operator-Token calls. */
const adminRoutes = (Object.keys(api) as RouteName[]).filter(
  (name) => api[name].path.startsWith('/admin/') && !(api[name] as RouteDef).operator,
)
/** The sign-in calls: the only console routes without a role. */
const PUBLIC: RouteName[] = ['adminNonce', 'adminLogin']

/** A campaign that starts in a minute and lasts a day, with one tier. */
const campaignBody = () => ({
  translations: [{ lang: 'en', title: 'Summit', body: '<p>Join us.</p>' }],
  starts_at: new Date(Date.now() + 60_000).toISOString(),
  ends_at: new Date(Date.now() + 86_400_000).toISOString(),
  tiers: [{ min_direct: 1, min_fuel: '0', reward: { kind: 'trip', places: 1 } }],
})
const roleOf = (name: RouteName) => (api[name] as RouteDef).admin
/** Writes: routes a viewer may not call (logout is the viewer's own session). */
const writes = adminRoutes.filter((name) => roleOf(name) !== undefined && roleOf(name) !== 'viewer')

/**
 * Tables that change without any admin action: rate_limit_hits counts every call, refused or not; job_heartbeats are
 * written by the instance's jobs on their own clock. Every other table (tableNames: a new one included without
 * anyone listing it), and the uploaded files, are compared before and after each refused call.
 */
const UNWATCHED = ['rate_limit_hits', 'job_heartbeats']

describe(`operator console access (${dbKind})`, () => {
  let t: TestContext
  let admin: TestAdmin
  let operator: TestAdmin
  let viewer: TestAdmin
  let user: Member
  let fixture: {
    withdrawal: string
    withdrawal2: string
    notice: string
    banner: string
    pendingAdjustment: string
    pendingAdjustment2: string
    pendingChange: string
    pendingChange2: string
    removable: string
    heldDay: string
    campaign: string
  }

  beforeAll(async () => {
    t = await createTestApp()
    await addOffChainAssets(t.db)
    await seedBusinessConfig(t.db)
    await seedNotices(t.db)
    // Review from 100 USDT, two operators from 1000. With two admins, every adjustment and every weakening change
    // waits for the second.
    await reviewedUsdtWithdrawals(t.db, 1000n * USDT)
    user = await fundedMember(t, (await seedRoot(t.db)).address, { USDT: 10_000n * USDT })
    // A resting buy order: 1 PLG at 0.5 USDT.
    const order = await call(t.app, api.tradeBuy, { price: '500000', amount: '1000000000' }, user.auth)
    expect(order.code, order.msg).toBe(Code.OK)
    admin = await signedInAdmin(t.app, t.db, 'admin')
    operator = await signedInAdmin(t.app, t.db, 'operator')
    viewer = await signedInAdmin(t.app, t.db, 'viewer')
    const second = await signedInAdmin(t.app, t.db, 'admin')
    const withdraw = async (amount: bigint) => {
      const res = await call(t.app, api.withdraw, { coin: 'USDT', amount: amount.toString() }, user.auth)
      expect(res.data, res.msg).toMatchObject({ status: 'review' })
      return (res.data as { id: string }).id
    }
    const pending = async () => {
      const res = await call(
        t.app,
        api.adminAdjust,
        { address: user.address, coin: 'USDT', amount: (2000n * USDT).toString(), reason: 'goodwill credit' },
        second.headers,
      )
      expect(res.data).toMatchObject({ status: 'pending' })
      return (res.data as { id: string }).id
    }
    // Adding an operator once two admins exist: proposed by the second admin, decided by the first.
    const proposal = async () => {
      const res = await call(
        t.app,
        api.adminAdminSave,
        { address: new TestWallet().address, role: 'viewer' },
        second.headers,
      )
      expect(res.data).toMatchObject({ status: 'pending' })
      return (res.data as { id: string }).id
    }
    // A campaign that has ended (its qualifiers are read, its rewards granted).
    const campaign = await call(t.app, api.adminCampaignSave, campaignBody(), admin.headers)
    expect(campaign.code, campaign.msg).toBe(Code.OK)
    const ended = (campaign.data as { id: string }).id
    await t.db
      .updateTable('campaigns')
      .set({ starts_at: new Date(Date.now() - 7_200_000), ends_at: new Date(Date.now() - 1000) })
      .where('id', '=', ended)
      .execute()
    const notices = await call(t.app, api.adminNotices, {}, viewer.headers)
    const banners = await call(t.app, api.adminBanners, {}, viewer.headers)
    fixture = {
      withdrawal: await withdraw(200n * USDT),
      withdrawal2: await withdraw(300n * USDT),
      notice: (notices.data as { list: { id: string }[] }).list[0]?.id as string,
      banner: (banners.data as { list: { id: string }[] }).list[0]?.id as string,
      pendingAdjustment: await pending(),
      pendingAdjustment2: await pending(),
      pendingChange: await proposal(),
      pendingChange2: await proposal(),
      removable: (await allowAdmin(t.db, 'viewer')).address,
      campaign: ended,
      heldDay: '2025-01-01',
    }
    // A settlement day the circuit breaker holds, for its release.
    await t.db
      .insertInto('settlement_runs')
      .values({
        day: fixture.heldDay,
        status: 'held',
        phase: 'pay',
        summary: JSON.stringify({
          pool: '0',
          referral: [],
          expired: { stakes: 0, finance: 0 },
          hold: { at: '2025-01-02T00:00:00.000Z', reasons: [] },
        }),
      })
      .execute()
  })
  afterAll(() => t.close())

  /** A body each route accepts from a caller of its role (the audit test below proves they do). */
  async function bodyOf(name: RouteName): Promise<Body> {
    const config = (await call(t.app, api.adminConfig, {}, viewer.headers)).data as ConfigVersion
    const usdt = await t.db.selectFrom('assets').selectAll().where('code', '=', 'USDT').executeTakeFirstOrThrow()
    const reason = 'checked with the user'
    const bodies: Partial<Record<RouteName, Body>> = {
      adminAdminSave: { address: new TestWallet().address, role: 'viewer' },
      adminAdminRemove: { address: fixture.removable },
      adminConfigSave: {
        base_version: config.id,
        value: { ...config.value, pledge: { ...config.value.pledge, minUsdt: (150n * USDT).toString() } },
      },
      adminAssetSave: {
        coin: 'USDT',
        base_version: usdt.version,
        is_user_recharge: usdt.is_user_recharge,
        withdraw_enabled: usdt.withdraw_enabled,
        // In USDT, as the console types it.
        min_withdraw: formatAmount(usdt.min_atm_money, usdt.decimals),
        withdraw_fee: formatAmount(usdt.withdraw_fee, usdt.decimals),
        review_threshold: usdt.review_threshold && formatAmount(usdt.review_threshold, usdt.decimals),
        dual_review_threshold: usdt.dual_review_threshold && formatAmount(usdt.dual_review_threshold, usdt.decimals),
      },
      adminAssetHistory: { coin: 'USDT' },
      adminNoticeSave: {
        translations: [{ lang: 'en', title: 'Maintenance', body: '<p>Tonight.</p>' }],
        visible: true,
        is_event: false,
      },
      adminNoticePublish: { id: fixture.notice, visible: false },
      adminBannerSave: {
        type: 1,
        sort: 9,
        link: null,
        visible: true,
        translations: [{ lang: 'en', title: 'New', image_url: '/banners/stake.svg' }],
      },
      adminBannerPublish: { id: fixture.banner, visible: false },
      adminWithdrawals: { status: 'review' },
      adminWithdrawalsCsv: { status: 'review' },
      adminWithdrawalApprove: { id: fixture.withdrawal },
      adminWithdrawalReject: { id: fixture.withdrawal2, reason },
      adminUsers: { q: user.address.slice(0, 6) },
      adminUsersCsv: { q: user.address.slice(0, 6) },
      adminUser: { address: user.address },
      adminUserLedger: { address: user.address },
      adminUserStakes: { address: user.address },
      adminUserNodes: { address: user.address },
      adminUserFinance: { address: user.address },
      adminUserSessions: { address: user.address },
      adminUserOrders: { address: user.address, status: 'pending' },
      adminUserRevoke: { address: user.address, reason },
      adminAdjustments: { status: 'pending' },
      adminAdjust: { address: user.address, coin: 'USDT', amount: '5', reason },
      adminAdjustApprove: { id: fixture.pendingAdjustment },
      adminAdjustReject: { id: fixture.pendingAdjustment2, reason },
      adminChangeApprove: { id: fixture.pendingChange },
      adminChangeReject: { id: fixture.pendingChange2, reason },
      adminAudit: { action: 'admin.' },
      adminAuditCsv: { action: 'admin.' },
      adminSettlementRelease: { day: fixture.heldDay },
      adminCampaignSave: campaignBody(),
      adminCampaignQualifiers: { id: fixture.campaign },
      adminCampaignQualifiersCsv: { id: fixture.campaign },
      adminCampaignGrant: { id: fixture.campaign },
    }
    return bodies[name] ?? {}
  }

  /** Calls a console route (the upload route with a real image) with the given headers. */
  async function send(name: RouteName, headers: Record<string, string>) {
    if (name === 'adminUpload') return upload(t.app, headers, { name: 'a.png', type: 'image/png', bytes: PNG_1PX })
    return call(t.app, api[name], await bodyOf(name), { headers })
  }

  async function snapshot() {
    const watched = (await tableNames(t.db)).filter((table) => !UNWATCHED.includes(table))
    const tables = await Promise.all(
      watched.map(async (table) =>
        JSON.stringify((await sql`select * from ${sql.table(table)} order by 1`.execute(t.db)).rows),
      ),
    )
    const uploads = path.join(t.app.config.dataDir, 'uploads')
    return { tables, uploads: fs.existsSync(uploads) ? fs.readdirSync(uploads) : [] }
  }

  it('every /admin/ route is a sign-in call, an Operator-Token call or names the role it needs', () => {
    expect(adminRoutes.length).toBeGreaterThan(30)
    for (const name of adminRoutes) {
      if (PUBLIC.includes(name)) expect(roleOf(name), name).toBeUndefined()
      else expect(['viewer', 'operator', 'admin'], name).toContain(roleOf(name))
    }
    // The operator-token call stays as it was.
    expect(api.settlementRun).toMatchObject({ operator: true })
  })

  it.each(adminRoutes.filter((name) => !PUBLIC.includes(name)))(
    '%s: no session, a user session, a forged or user token, a weaker role → -403, nothing changed',
    async (name) => {
      const required = roleOf(name) as AdminRole
      const weaker = (['viewer', 'operator'] as const).filter((role) => !roleAtLeast(role, required))
      const callers: [string, Record<string, string>][] = [
        ['no session', {}],
        ['user session', { 'user-token': user.auth.token, 'user-address': user.address }],
        ['user token as admin token', { 'admin-token': user.auth.token }],
        ['forged token', { 'admin-token': 'x'.repeat(43) }],
        ...weaker.map((role): [string, Record<string, string>] => [
          `${role} session`,
          { 'admin-token': { viewer, operator }[role].token },
        ]),
      ]
      const before = await snapshot()
      for (const [who, headers] of callers) {
        const res = await send(name, headers)
        expect(res.code, `${name} as ${who}: ${res.msg}`).toBe(Code.SESSION_INVALID)
        expect(res.data, who).toBeNull()
      }
      expect(await snapshot()).toEqual(before)
    },
  )

  it("a viewer sees a user's records: balances, orders, withdrawals, adjustments", async () => {
    const read = async (route: RouteDef, body: Body) => {
      const res = await call(t.app, route, body, viewer.headers)
      expect(res.code, res.msg).toBe(Code.OK)
      return res.data as { list: Record<string, unknown>[] }
    }
    const detail = (await call(t.app, api.adminUser, { address: user.address }, viewer.headers)).data
    expect(detail).toMatchObject({ address: user.address, active_sessions: 1, team: { team_count: 0 } })
    const usdt = (detail as { balances: { coin: string; available: string; locked: string }[] }).balances.find(
      (b) => b.coin === 'USDT',
    )
    // 10 000 in, two withdrawals (200 + 300) and the order's 0.5 locked, the pending adjustments not applied.
    expect(usdt).toEqual({ coin: 'USDT', decimals: 6, available: '9499500000', locked: '500500000' })
    const orders = await read(api.adminUserOrders, { address: user.address, status: 'pending' })
    expect(orders.list).toMatchObject([{ type: 'buy', price: '500000', amount: '1000000000', status: 'pending' }])
    const withdrawals = await read(api.adminWithdrawals, { status: 'review', address: user.address })
    expect(withdrawals.list.map((w) => w.amount)).toEqual(['200000000', '300000000'])
    const adjustments = await read(api.adminAdjustments, { address: user.address })
    expect(adjustments.list.map((a) => a.status)).toEqual(['pending', 'pending'])
    const found = await read(api.adminUsers, { q: user.address.slice(0, 5) })
    expect(found.list.map((u) => u.address)).toContain(user.address)
    expect((await call(t.app, api.adminUsers, { q: 'ab' }, viewer.headers)).code).toBe(Code.INVALID)
    expect((await call(t.app, api.adminUser, { address: new TestWallet().address }, viewer.headers)).code).toBe(
      Code.NOT_FOUND,
    )
  })

  it('a viewer reads every read route', async () => {
    // The solvency report reads the chain: admin-money.test.ts covers it on the local chain.
    const reads = adminRoutes.filter((n) => roleOf(n) === 'viewer' && !['adminLogout', 'adminSolvency'].includes(n))
    for (const name of reads) {
      if (api[name].csv) {
        const file = await download(t.app, api[name], await bodyOf(name), viewer.headers)
        expect(file.lines?.[0], `${name}: ${file.refusal?.msg}`).toEqual(api[name].csv?.columns)
        continue
      }
      const res = await send(name, viewer.headers.headers)
      expect(res.code, `${name}: ${res.msg}`).toBe(Code.OK)
    }
  })

  it('every admin action succeeds for its role and leaves exactly one audit entry naming who, what and where', async () => {
    const actions: [RouteName, string, TestAdmin][] = [
      // Two admins: adding an operator is proposed; approving a proposal applies it (audited as what it does).
      ['adminAdminSave', 'change.propose', admin],
      ['adminChangeApprove', 'admin.save', admin],
      ['adminChangeReject', 'change.reject', admin],
      ['adminAdminRemove', 'admin.remove', admin],
      ['adminConfigSave', 'config.save', admin],
      ['adminAssetSave', 'asset.save', admin],
      ['adminNoticeSave', 'notice.save', operator],
      ['adminNoticePublish', 'notice.unpublish', operator],
      ['adminBannerSave', 'banner.save', operator],
      ['adminBannerPublish', 'banner.unpublish', operator],
      ['adminUpload', 'upload.image', operator],
      ['adminWithdrawalApprove', 'withdrawal.approve', operator],
      ['adminWithdrawalReject', 'withdrawal.reject', operator],
      ['adminAdjust', 'adjustment.create', admin],
      ['adminAdjustApprove', 'adjustment.approve', admin],
      ['adminAdjustReject', 'adjustment.reject', admin],
      ['adminUserRevoke', 'user.revokeSessions', admin],
      // Two admins: releasing a held settlement day is proposed.
      ['adminSettlementRelease', 'change.propose', admin],
      ['adminCampaignSave', 'campaign.save', operator],
      ['adminCampaignGrant', 'campaign.grant', admin],
    ]
    // Every write route is in the list (a new one without an audit test fails here), but the snapshot of liabilities:
    // it reads the chain, which this app has none of (its audit entry is checked in liabilities.test.ts).
    const offChain = writes.filter((name) => name !== 'adminPolSnapshot')
    expect(actions.map(([name]) => name).sort()).toEqual(offChain.sort())
    for (const [name, action, caller] of actions) {
      const [all, own] = [await auditCount(t.db), await auditCount(t.db, action)]
      const res = await send(name, caller.headers.headers)
      expect(res.code, `${name}: ${res.msg}`).toBe(Code.OK)
      expect(await auditCount(t.db), name).toBe(all + 1)
      expect(await auditCount(t.db, action), name).toBe(own + 1)
      const entry = await t.db
        .selectFrom('admin_audit')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
      expect(entry, name).toMatchObject({ actor: caller.address, role: caller.role, action })
      expect(entry.target, name).toMatch(/^[a-z]+:.+/)
      expect(entry.ip, name).toBeTruthy()
    }
    // Sign-in and sign-out are audited too.
    const viewer2 = await signedInAdmin(t.app, t.db, 'viewer')
    expect(await auditCount(t.db, 'admin.login')).toBeGreaterThan(0)
    const out = await auditCount(t.db, 'admin.logout')
    expect((await call(t.app, api.adminLogout, {}, viewer2.headers)).code).toBe(Code.OK)
    expect(await auditCount(t.db, 'admin.logout')).toBe(out + 1)
  })

  it('the audit log is searchable by action, action prefix, actor, target and time range, paged', async () => {
    const search = async (body: Body) =>
      (await call(t.app, api.adminAudit, body, viewer.headers)).data as {
        list: { action: string; actor: string; target: string | null; at: string }[]
        total: number
      }
    const approvals = await search({ action: 'withdrawal.approve' })
    expect(approvals.total).toBe(await auditCount(t.db, 'withdrawal.approve'))
    expect(approvals.list.every((e) => e.action === 'withdrawal.approve')).toBe(true)
    const decisions = await search({ action: 'withdrawal.' })
    expect(decisions.total).toBe(
      (await auditCount(t.db, 'withdrawal.approve')) + (await auditCount(t.db, 'withdrawal.reject')),
    )
    // '%' and '_' in a prefix are literal characters, not wildcards.
    expect((await search({ action: '%.' })).total).toBe(0)
    const byOperator = await search({ actor: operator.address, limit: 2 })
    expect(byOperator.list).toHaveLength(2)
    expect(byOperator.list.every((e) => e.actor === operator.address)).toBe(true)
    const target = `withdrawal:${fixture.withdrawal}`
    expect((await search({ target })).list.map((e) => e.target)).toEqual([target])
    const future = new Date(Date.now() + 3_600_000).toISOString()
    expect((await search({ from: future })).total).toBe(0)
    expect((await search({ to: future })).total).toBe(await auditCount(t.db))
    const page2 = await search({ page: 2, limit: 3 })
    const page1 = await search({ page: 1, limit: 3 })
    expect((page2.list[0]?.at as string) <= (page1.list[2]?.at as string)).toBe(true)
  })

  it('revoking a user session makes their next call -403; the other sessions can be left alone', async () => {
    const wallet = new TestWallet()
    const root = await t.db
      .selectFrom('users')
      .select('address')
      .where('parent_id', 'is', null)
      .executeTakeFirstOrThrow()
    const first = (await login(t.app, wallet, root.address)).data as { token: string }
    const second = (await login(t.app, wallet, root.address)).data as { token: string }
    const as = (token: string) => ({ token, address: wallet.address })
    expect((await call(t.app, api.userIndex, {}, as(first.token))).code).toBe(Code.OK)
    const sessions = (
      (await call(t.app, api.adminUserSessions, { address: wallet.address }, viewer.headers)).data as {
        list: { id: string; active: boolean }[]
      }
    ).list
    expect(sessions).toHaveLength(2)
    const oldest = sessions[1] as { id: string }
    const one = await call(
      t.app,
      api.adminUserRevoke,
      { address: wallet.address, session_id: oldest.id, reason: 'reported stolen phone' },
      admin.headers,
    )
    expect(one).toMatchObject({ code: Code.OK, msg: 'The sessions were revoked', data: { revoked: 1 } })
    expect((await call(t.app, api.userIndex, {}, as(first.token))).code).toBe(Code.SESSION_INVALID)
    expect((await call(t.app, api.userIndex, {}, as(second.token))).code).toBe(Code.OK)
    const all = await call(
      t.app,
      api.adminUserRevoke,
      { address: wallet.address, reason: 'all of them' },
      admin.headers,
    )
    expect(all.data).toEqual({ revoked: 1 })
    expect((await call(t.app, api.userIndex, {}, as(second.token))).code).toBe(Code.SESSION_INVALID)
    const reason = await call(t.app, api.adminUserRevoke, { address: wallet.address, reason: '   ' }, admin.headers)
    expect(reason.code).toBe(Code.INVALID)
  })
})

describe(`operator console sign-in and allow-list (${dbKind})`, () => {
  let t: TestContext
  beforeAll(async () => {
    // A real cluster's configuration: no local bootstrap.
    t = await createTestApp(realCluster('devnet'))
  })
  afterAll(() => t.close())

  it('signs in an allow-listed wallet with its role; anyone else (also while the list is empty, on a real cluster) is refused before a message is issued', async () => {
    const stranger = new TestWallet()
    const nonce = await call(t.app, api.adminNonce, { address: stranger.address })
    expect(nonce).toMatchObject({ code: Code.FAIL, msg: 'This wallet is not on the operator list' })
    const wallet = await allowAdmin(t.db, 'operator')
    const res = await adminSignIn(t.app, wallet)
    expect(res).toMatchObject({ code: Code.OK, msg: 'Signed in to the operator console' })
    const session = res.data as AdminLoginData
    expect(session).toMatchObject({ address: wallet.address, role: 'operator' })
    const me = await call(t.app, api.adminMe, {}, { headers: { 'admin-token': session.token } })
    expect(me.data).toEqual({ address: wallet.address, role: 'operator', expires_at: session.expires_at })
    // Only the token's hash is stored.
    const stored = await t.db.selectFrom('admin_sessions').select('token_hash').execute()
    expect(stored.map((s) => s.token_hash)).not.toContain(session.token)
  })

  it('a user login message never opens the console, and a console message is single-use', async () => {
    const wallet = await allowAdmin(t.db, 'admin')
    const userNonce = await call(t.app, api.nonce, { address: wallet.address })
    const userMessage = (userNonce.data as { message: string }).message
    const res = await call(t.app, api.adminLogin, {
      address: wallet.address,
      sign: wallet.sign(userMessage),
      message: userMessage,
    })
    expect(res).toMatchObject({ code: Code.FAIL, msg: 'The sign-in message was made for another address or site' })
    const nonce = await call(t.app, api.adminNonce, { address: wallet.address })
    const message = (nonce.data as { message: string }).message
    expect(message).toContain('Sign in to the solpledge operator console')
    const body = { address: wallet.address, sign: wallet.sign(message), message }
    expect((await call(t.app, api.adminLogin, body)).code).toBe(Code.OK)
    expect(await call(t.app, api.adminLogin, body)).toMatchObject({
      code: Code.FAIL,
      msg: 'The sign-in message has expired or was already used, please sign again',
    })
    // Someone else's signature over the message is refused.
    const other = new TestWallet()
    const nonce2 = await call(t.app, api.adminNonce, { address: wallet.address })
    const message2 = (nonce2.data as { message: string }).message
    const forged = await call(t.app, api.adminLogin, {
      address: wallet.address,
      sign: other.sign(message2),
      message: message2,
    })
    expect(forged.code).toBe(Code.FAIL)
  })

  it('logout, expiry, demotion and removal apply to the next request', async () => {
    const boss = await signedInAdmin(t.app, t.db, 'admin')
    const op = await signedInAdmin(t.app, t.db, 'operator')
    const notice = { translations: [{ lang: 'en', title: 'Hello', body: '' }], visible: false, is_event: false }
    expect((await call(t.app, api.adminNoticeSave, notice, op.headers)).code).toBe(Code.OK)
    // Demoted to viewer: reads still work, writes are refused at once.
    const demote = await call(t.app, api.adminAdminSave, { address: op.address, role: 'viewer' }, boss.headers)
    // Lowering a role is one admin's decision, also with several admins.
    expect(demote.data).toMatchObject({
      status: 'applied',
      changes: [{ path: 'role', before: 'operator', after: 'viewer' }],
    })
    expect(await call(t.app, api.adminNoticeSave, notice, op.headers)).toMatchObject({
      code: Code.SESSION_INVALID,
      msg: 'This action needs the operator role',
    })
    expect((await call(t.app, api.adminNotices, {}, op.headers)).code).toBe(Code.OK)
    // Removed: every session ends.
    expect((await call(t.app, api.adminAdminRemove, { address: op.address }, boss.headers)).code).toBe(Code.OK)
    expect((await call(t.app, api.adminMe, {}, op.headers)).code).toBe(Code.SESSION_INVALID)
    expect((await call(t.app, api.adminNonce, { address: op.address })).code).toBe(Code.FAIL)
    // Expired.
    const viewer = await signedInAdmin(t.app, t.db, 'viewer')
    await t.db
      .updateTable('admin_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('address', '=', viewer.address)
      .execute()
    expect((await call(t.app, api.adminMe, {}, viewer.headers)).code).toBe(Code.SESSION_INVALID)
    // Logged out.
    expect((await call(t.app, api.adminLogout, {}, boss.headers)).code).toBe(Code.OK)
    expect((await call(t.app, api.adminMe, {}, boss.headers)).code).toBe(Code.SESSION_INVALID)
  })

  it('ADMIN_ADDRESSES entries are set at every start and cannot be changed in the console; nor can oneself', async () => {
    const listed = new TestWallet()
    const later = new TestWallet()
    await syncConfiguredAdmins(t.db, [{ address: listed.address, role: 'viewer' }])
    const boss = await signedInAdmin(t.app, t.db, 'admin')
    for (const body of [
      { address: listed.address, role: 'admin' },
      { address: boss.address, role: 'viewer' },
    ]) {
      const res = await call(t.app, api.adminAdminSave, body, boss.headers)
      expect(res.code).toBe(Code.FAIL)
    }
    expect((await call(t.app, api.adminAdminRemove, { address: listed.address }, boss.headers)).msg).toBe(
      'This operator is set by the server configuration (ADMIN_ADDRESSES) and cannot be changed here',
    )
    expect((await call(t.app, api.adminAdminRemove, { address: boss.address }, boss.headers)).msg).toBe(
      'You cannot change or remove your own access',
    )
    // The next start lists another role and another address: the first entry follows, and one no longer listed goes.
    await syncConfiguredAdmins(t.db, [{ address: later.address, role: 'operator' }])
    const list = (await call(t.app, api.adminAdmins, {}, boss.headers)).data as {
      list: { address: string; role: string; source: string }[]
    }
    expect(list.list.find((a) => a.address === later.address)).toMatchObject({ role: 'operator', source: 'config' })
    expect(list.list.find((a) => a.address === listed.address)).toBeUndefined()
    await syncConfiguredAdmins(t.db, [{ address: listed.address, role: 'admin' }])
    const back = (await call(t.app, api.adminAdmins, {}, boss.headers)).data as {
      list: { address: string; role: string }[]
    }
    expect(back.list.find((a) => a.address === listed.address)).toMatchObject({ role: 'admin' })
  })
})

describe(`operator console on the local chain (${dbKind})`, () => {
  it('the first wallet to sign in while the allow-list is empty becomes its admin; the next one is refused', async () => {
    const t = await createTestApp()
    try {
      const first = new TestWallet()
      const res = await adminSignIn(t.app, first)
      expect(res.data).toMatchObject({ address: first.address, role: 'admin' })
      expect(await auditCount(t.db, 'admin.bootstrap')).toBe(1)
      const list = (
        await call(t.app, api.adminAdmins, {}, { headers: { 'admin-token': (res.data as AdminLoginData).token } })
      ).data
      expect(list).toMatchObject({ list: [{ address: first.address, role: 'admin', source: 'local' }] })
      const second = await call(t.app, api.adminNonce, { address: new TestWallet().address })
      expect(second).toMatchObject({ code: Code.FAIL, msg: 'This wallet is not on the operator list' })
    } finally {
      await t.close()
    }
  })
})

describe(`operator console with the session cache on (${dbKind})`, () => {
  it('revoking a user session drops it from the cache: the next call is -403 at once', async () => {
    const t = await createTestApp({ sessionCacheMs: 60_000 })
    try {
      const { address, auth } = await member(t.app, (await seedRoot(t.db)).address)
      expect((await call(t.app, api.userIndex, {}, auth)).code).toBe(Code.OK)
      const admin = await signedInAdmin(t.app, t.db, 'admin')
      const res = await call(t.app, api.adminUserRevoke, { address, reason: 'account takeover' }, admin.headers)
      expect(res.data).toEqual({ revoked: 1 })
      expect((await call(t.app, api.userIndex, {}, auth)).code).toBe(Code.SESSION_INVALID)
    } finally {
      await t.close()
    }
  })
})
