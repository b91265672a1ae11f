import {
  type Adjustment,
  type AdminAsset,
  type AdminChange,
  type AdminLoginData,
  type AdminUser,
  type AdminWithdrawal,
  type AssetSettings,
  api,
  Code,
  formatAmount,
  type JobStatus,
} from '@solpledge/contract'
import { USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSignIn, auditCount, reviewedUsdtWithdrawals, signedInAdmin, type TestAdmin } from './admin.ts'
import {
  addOffChainAssets,
  call,
  createTestApp,
  dbKind,
  fundedMember,
  type Member,
  seedRoot,
  type TestContext,
  TestWallet,
} from './helpers.ts'

/**
 * Four eyes that one admin cannot bypass (docs/admin.md#four-eyes): with one admin the rules cannot apply; from the
 * second admin on, every adjustment, every weakening change of the allow-list or the review thresholds, and every
 * reviewed withdrawal (unless a dual threshold above the review threshold is set) needs two different people.
 */
describe(`operator console: four eyes (${dbKind})`, () => {
  let t: TestContext
  let first: TestAdmin
  let second: TestAdmin
  let operator: TestAdmin
  let user: Member

  beforeAll(async () => {
    t = await createTestApp()
    await addOffChainAssets(t.db)
    // Review from 100 USDT, no two-reviewer threshold set.
    await reviewedUsdtWithdrawals(t.db)
    user = await fundedMember(t, (await seedRoot(t.db)).address, { USDT: 10_000n * USDT })
    first = await signedInAdmin(t.app, t.db, 'admin')
  })
  afterAll(() => t.close())

  const adjust = (amount: bigint, who: TestAdmin) =>
    call(
      t.app,
      api.adminAdjust,
      // Typed in USDT, as the console sends it.
      { address: user.address, coin: 'USDT', amount: formatAmount(amount, 6), reason: 'goodwill credit' },
      who.headers,
    )
  const usdt = async () =>
    ((await call(t.app, api.adminAssets, {}, first.headers)).data as { list: AdminAsset[] }).list.find(
      (a) => a.coin === 'USDT',
    ) as AdminAsset
  const saveAsset = async (changes: Partial<AssetSettings>, who = first) => {
    const { coin, version, review_threshold, dual_review_threshold, min_withdraw, withdraw_fee, ...rest } = await usdt()
    const settings: AssetSettings = {
      is_user_recharge: rest.is_user_recharge,
      withdraw_enabled: rest.withdraw_enabled,
      min_withdraw,
      withdraw_fee,
      review_threshold,
      dual_review_threshold,
    }
    return call(t.app, api.adminAssetSave, { coin, base_version: version, ...settings, ...changes }, who.headers)
  }
  const saveAdmin = (address: string, role: AdminUser['role'], who = first) =>
    call(t.app, api.adminAdminSave, { address, role }, who.headers)
  const approve = (id: string, who: TestAdmin) => call(t.app, api.adminChangeApprove, { id }, who.headers)
  const roleOf = async (address: string) => {
    const list = (await call(t.app, api.adminAdmins, {}, first.headers)).data as { list: AdminUser[] }
    return list.list.find((a) => a.address === address)?.role ?? null
  }
  /** Signs in a wallet already on the allow-list (put there through the console's rules). */
  const signIn = async (wallet: TestWallet, role: AdminUser['role']): Promise<TestAdmin> => {
    const { token } = (await adminSignIn(t.app, wallet)).data as AdminLoginData
    return { wallet, address: wallet.address, role, token, headers: { headers: { 'admin-token': token } } }
  }
  const fourEyes = async () => ((await call(t.app, api.adminJobs, {}, first.headers)).data as JobStatus).four_eyes
  const withdraw = async (amount: bigint) => {
    const res = await call(t.app, api.withdraw, { coin: 'USDT', amount: amount.toString() }, user.auth)
    expect(res.data, res.msg).toMatchObject({ status: 'review' })
    return (res.data as { id: string }).id
  }
  const inReview = async (id: string) =>
    (
      (await call(t.app, api.adminWithdrawals, { status: 'review' }, first.headers)).data as {
        list: AdminWithdrawal[]
      }
    ).list.find((w) => w.id === id) as AdminWithdrawal

  it('with one admin the rules cannot apply: that admin decides alone, and the job status says so', async () => {
    expect(await fourEyes()).toEqual({ admins: 1, reviewers: 1 })
    expect((await adjust(5n * USDT, first)).data).toMatchObject({ status: 'applied', approvals_needed: 1 })
    // Raising the review threshold (fewer withdrawals reviewed) is applied at once; so is lowering it back.
    expect((await saveAsset({ review_threshold: '500' })).data).toMatchObject({
      status: 'applied',
      approvals_needed: 1,
    })
    expect((await saveAsset({ review_threshold: '100' })).code).toBe(Code.OK)
    // The only reviewer approves alone, even with no dual threshold set.
    const id = await withdraw(150n * USDT)
    expect((await inReview(id)).approvals_needed).toBe(1)
    await call(t.app, api.adminWithdrawalReject, { id, reason: 'test of the single reviewer' }, first.headers)
  })

  it('the first admin adds a second one alone; from then on adding anyone waits for the other admin', async () => {
    const wallet = new TestWallet()
    expect((await saveAdmin(wallet.address, 'admin')).data).toMatchObject({ status: 'applied' })
    second = await signIn(wallet, 'admin')
    expect(await fourEyes()).toEqual({ admins: 2, reviewers: 2 })
    const [audits, n] = [await auditCount(t.db), await auditCount(t.db, 'admin.save')]
    const operatorWallet = new TestWallet()
    const add = await saveAdmin(operatorWallet.address, 'operator')
    expect(add).toMatchObject({
      code: Code.OK,
      msg: 'Proposed: a second, different admin must approve this change before it applies',
      data: {
        status: 'pending',
        approvals_needed: 2,
        kind: 'admin.save',
        target: `admin:${operatorWallet.address}`,
        changes: [{ path: 'role', before: null, after: 'operator' }],
        proposed_by: first.address,
        decided_by: null,
      },
    })
    const { id } = add.data as AdminChange
    expect(await roleOf(operatorWallet.address)).toBeNull()
    expect(await auditCount(t.db, 'change.propose')).toBe(1)
    // The proposer cannot approve their own change; nothing changes.
    expect(await approve(id, first)).toMatchObject({
      code: Code.FAIL,
      msg: 'The admin who proposed this change cannot approve it; a different admin must',
    })
    expect(await roleOf(operatorWallet.address)).toBeNull()
    // The other admin approves, twice at once: applied exactly once, audited as admin.save naming the proposal.
    const both = await Promise.all([approve(id, second), approve(id, second)])
    expect(both.map((r) => r.msg).sort()).toEqual(['Change applied', 'This change is not waiting for approval'])
    expect(both.find((r) => r.code === Code.OK)?.data).toMatchObject({ status: 'applied', decided_by: second.address })
    expect(await roleOf(operatorWallet.address)).toBe('operator')
    expect(await auditCount(t.db, 'admin.save')).toBe(n + 1)
    expect(await auditCount(t.db)).toBe(audits + 2)
    const entry = await t.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', '=', 'admin.save')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(entry).toMatchObject({ actor: second.address, details: { change: id, proposed_by: first.address } })
    operator = await signIn(operatorWallet, 'operator')
  })

  it("raising a role waits for the other admin; lowering one is one admin's decision", async () => {
    const raise = await saveAdmin(operator.address, 'admin', second)
    expect(raise.data).toMatchObject({
      status: 'pending',
      changes: [{ path: 'role', before: 'operator', after: 'admin' }],
    })
    expect(await roleOf(operator.address)).toBe('operator')
    // Withdrawn by its proposer: nothing changes.
    const withdrawn = await call(
      t.app,
      api.adminChangeReject,
      { id: (raise.data as AdminChange).id, reason: 'asked too early' },
      second.headers,
    )
    expect(withdrawn).toMatchObject({
      code: Code.OK,
      msg: 'Change rejected; nothing changed',
      data: { status: 'rejected', decided_by: null, decision_reason: 'asked too early' },
    })
    expect(await roleOf(operator.address)).toBe('operator')
    expect(await approve((raise.data as AdminChange).id, first)).toMatchObject({
      code: Code.FAIL,
      msg: 'This change is not waiting for approval',
    })
    const viewerWallet = new TestWallet()
    const added = await saveAdmin(viewerWallet.address, 'viewer')
    expect((await approve((added.data as AdminChange).id, second)).code).toBe(Code.OK)
    const lower = await saveAdmin(operator.address, 'viewer')
    expect(lower).toMatchObject({ code: Code.OK, msg: 'Saved', data: { status: 'applied', approvals_needed: 1 } })
    expect(await roleOf(operator.address)).toBe('viewer')
    // Back to operator: a raise again, approved by the other admin.
    const back = await saveAdmin(operator.address, 'operator', second)
    expect((await approve((back.data as AdminChange).id, first)).code).toBe(Code.OK)
    expect(await roleOf(operator.address)).toBe('operator')
  })

  it('removing one of the last two admins waits for the other: nobody removes the other and then acts alone', async () => {
    const remove = await call(t.app, api.adminAdminRemove, { address: second.address }, first.headers)
    expect(remove.data).toMatchObject({ status: 'pending', kind: 'admin.remove' })
    const demote = await saveAdmin(second.address, 'operator')
    expect(demote.data).toMatchObject({ status: 'pending' })
    expect(await roleOf(second.address)).toBe('admin')
    // Removing an operator makes nothing weaker: one admin's decision.
    const spare = new TestWallet()
    const added = await saveAdmin(spare.address, 'operator')
    await approve((added.data as AdminChange).id, second)
    expect((await call(t.app, api.adminAdminRemove, { address: spare.address }, first.headers)).data).toMatchObject({
      status: 'applied',
    })
    // Both proposals about the second admin are rejected by them.
    for (const change of [remove, demote])
      expect(
        (
          await call(
            t.app,
            api.adminChangeReject,
            { id: (change.data as AdminChange).id, reason: 'not agreed' },
            second.headers,
          )
        ).data,
      ).toMatchObject({ status: 'rejected', decided_by: second.address })
    expect(await roleOf(second.address)).toBe('admin')
  })

  it('every adjustment, however small, waits for a second admin', async () => {
    const res = await adjust(1n, first)
    expect(res.data).toMatchObject({ status: 'pending', approvals_needed: 2 })
    const applied = await call(t.app, api.adminAdjustApprove, { id: (res.data as Adjustment).id }, second.headers)
    expect(applied.data).toMatchObject({ status: 'applied', decided_by: second.address })
  })

  it('every withdrawal in review needs two reviewers unless a dual threshold above the review threshold is set', async () => {
    const id = await withdraw(150n * USDT)
    expect((await inReview(id)).approvals_needed).toBe(2)
    const approveAs = (who: TestAdmin) => call(t.app, api.adminWithdrawalApprove, { id }, who.headers)
    expect((await approveAs(operator)).data).toMatchObject({ status: 'review', approvals_needed: 2 })
    expect((await approveAs(operator)).msg).toBe(
      'You have already approved this; a different operator must give the second approval',
    )
    expect((await approveAs(first)).data).toMatchObject({ status: 'pending' })
  })

  it('raising or clearing a review threshold waits for the other admin; lowering one applies at once', async () => {
    // From "two approvals for every reviewed withdrawal" to "two from 1000 USDT": weaker, so proposed.
    const dual = await saveAsset({ dual_review_threshold: '1000' })
    expect(dual.data).toMatchObject({
      status: 'pending',
      kind: 'asset.save',
      target: 'asset:USDT',
      changes: [{ path: 'dual_review_threshold', before: null, after: '1000' }],
    })
    const cleared = await saveAsset({ review_threshold: null })
    expect(cleared.data).toMatchObject({ status: 'pending' })
    const before = await usdt()
    expect(before).toMatchObject({ review_threshold: '100', dual_review_threshold: null })
    // Lowering the review threshold (more withdrawals reviewed) is one admin's decision…
    const lower = await saveAsset({ review_threshold: '50' })
    expect(lower.data).toMatchObject({ status: 'applied' })
    // …and makes the proposals made from the older version stale: approving them applies nothing.
    const audits = await auditCount(t.db, 'asset.save')
    expect(await approve((dual.data as AdminChange).id, second)).toMatchObject({
      code: Code.FAIL,
      msg: 'The setting has changed since this was proposed; nothing was applied, please propose it again',
    })
    const changes = (await call(t.app, api.adminChanges, { status: 'stale' }, first.headers)).data as {
      list: AdminChange[]
    }
    expect(changes.list.map((c) => c.id)).toEqual([(dual.data as AdminChange).id])
    expect(await auditCount(t.db, 'asset.save')).toBe(audits)
    expect(await usdt()).toMatchObject({ review_threshold: '50', dual_review_threshold: null })
    // Proposed again from the current version and approved: applied.
    const again = await saveAsset({ dual_review_threshold: '1000' })
    expect((await approve((again.data as AdminChange).id, second)).data).toMatchObject({ status: 'applied' })
    expect(await usdt()).toMatchObject({ dual_review_threshold: '1000' })
    // Lowering the dual threshold is stricter: applied at once.
    expect((await saveAsset({ dual_review_threshold: '500' })).data).toMatchObject({
      status: 'applied',
    })
    const pending = (await call(t.app, api.adminChanges, { status: 'pending' }, first.headers)).data as {
      list: AdminChange[]
    }
    expect(pending.list.map((c) => c.id)).toEqual([(cleared.data as AdminChange).id])
  })
})
