import {
  type Adjustment,
  type AdminAsset,
  type AdminChange,
  type AdminWithdrawal,
  api,
  Code,
  formatAmount,
  type JobStatus,
  type OpsHistory,
} from '@solpledge/contract'
import { USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ownerTokenBalance } from '../src/chain/token.ts'
import { balances, checkInvariants, systemAccount } from '../src/modules/ledger/service.ts'
import { processWithdrawals } from '../src/modules/withdrawals/sender.ts'
import { auditCount, signedInAdmin, type TestAdmin } from './admin.ts'
import { call, dbKind, download } from './helpers.ts'
import { available, type ChainApp, createChainApp, depositor, fundedUser, sendAll } from './money.ts'

type User = Awaited<ReturnType<typeof fundedUser>>

describe(`operator console: withdrawal review and adjustments (${dbKind})`, () => {
  let ctx: ChainApp
  let mint: string
  let admin: TestAdmin
  let admin2: TestAdmin
  let operator: TestAdmin
  let operator2: TestAdmin
  let viewer: TestAdmin

  beforeAll(async () => {
    ctx = await createChainApp()
    mint = ctx.localnet.tokens.find((t) => t.symbol === 'USDT')?.mint as string
    admin = await signedInAdmin(ctx.app, ctx.db, 'admin')
    admin2 = await signedInAdmin(ctx.app, ctx.db, 'admin')
    operator = await signedInAdmin(ctx.app, ctx.db, 'operator')
    operator2 = await signedInAdmin(ctx.app, ctx.db, 'operator')
    viewer = await signedInAdmin(ctx.app, ctx.db, 'viewer')
    // Two operators from 20 000 USDT (below it one suffices); with two admins every adjustment needs both.
    const assets = (await call(ctx.app, api.adminAssets, {}, viewer.headers)).data as { list: AdminAsset[] }
    const usdt = assets.list.find((a) => a.coin === 'USDT') as AdminAsset
    const { symbol: _s, decimals: _d, mint: _m, version, updated_by: _u, updated_at: _a, ...settings } = usdt
    const res = await call(
      ctx.app,
      api.adminAssetSave,
      {
        ...settings,
        base_version: version,
        dual_review_threshold: '20000',
      },
      admin.headers,
    )
    // Raising the second-approval threshold from every reviewed withdrawal to 20 000 weakens the rules: it waits for
    // the second admin.
    expect(res).toMatchObject({ code: Code.OK, data: { status: 'pending' } })
    const applied = await call(ctx.app, api.adminChangeApprove, { id: (res.data as AdminChange).id }, admin2.headers)
    expect(applied).toMatchObject({ code: Code.OK, data: { status: 'applied' } })
  }, 120_000)
  afterAll(() => ctx.close())

  const withdraw = async (user: User, amount: bigint) => {
    const res = await call(ctx.app, api.withdraw, { coin: 'USDT', amount: amount.toString() }, user.auth)
    expect(res.code, res.msg).toBe(Code.OK)
    return res.data as AdminWithdrawal
  }
  const onChain = async (owner: string) => (await ownerTokenBalance(ctx.platform.chain, owner, mint)) ?? 0n
  const locked = async (user: User) => {
    const { id } = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('address', '=', user.wallet.address)
      .executeTakeFirstOrThrow()
    return (await balances(ctx.db, id)).USDT?.locked ?? 0n
  }
  const approve = (id: string, who: TestAdmin) => call(ctx.app, api.adminWithdrawalApprove, { id }, who.headers)
  const queue = async () =>
    (
      (await call(ctx.app, api.adminWithdrawals, { status: 'review' }, viewer.headers)).data as {
        list: AdminWithdrawal[]
      }
    ).list

  it('an operator approves a withdrawal under review: it goes to the sender and the user is paid on chain', async () => {
    const user = await depositor(ctx, 15_000n * USDT)
    const w = await withdraw(user, 12_000n * USDT)
    expect(w.status).toBe('review')
    expect((await queue()).map((q) => q.id)).toContain(w.id)
    const jobs = (await call(ctx.app, api.adminJobs, {}, viewer.headers)).data as JobStatus
    expect(jobs.sender.review).toBeGreaterThanOrEqual(1)
    // Nothing is sent while it waits.
    await processWithdrawals(ctx.db, ctx.platform)
    const walletBefore = await onChain(user.wallet.address)
    const res = await approve(w.id, operator)
    expect(res).toMatchObject({
      code: Code.OK,
      msg: 'Withdrawal approved and queued for sending',
      data: { status: 'pending', approvals_needed: 1, approvals: [{ admin: operator.address, role: 'operator' }] },
    })
    expect((await queue()).map((q) => q.id)).not.toContain(w.id)
    await sendAll(ctx)
    expect(await onChain(user.wallet.address)).toBe(walletBefore + 12_000n * USDT - USDT)
    expect(await locked(user)).toBe(0n)
    expect(await checkInvariants(ctx.db)).toEqual([])
    // A decided withdrawal cannot be decided again.
    expect(await approve(w.id, operator2)).toMatchObject({
      code: Code.FAIL,
      msg: 'This withdrawal is not waiting for review',
    })
    expect((await approve('999999', operator)).code).toBe(Code.NOT_FOUND)
  }, 60_000)

  it('a rejection with a reason returns the funds; nothing is sent', async () => {
    const user = await depositor(ctx, 11_000n * USDT)
    const w = await withdraw(user, 10_500n * USDT)
    expect(await available(ctx, user.auth, 'USDT')).toBe(500n * USDT)
    const reject = (reason: string) => call(ctx.app, api.adminWithdrawalReject, { id: w.id, reason }, operator.headers)
    expect((await reject('  ')).code).toBe(Code.INVALID)
    const res = await reject('address on a sanctions list')
    expect(res).toMatchObject({
      code: Code.OK,
      msg: "Withdrawal rejected; the amount is back in the user's balance",
      data: { status: 'rejected', error: 'address on a sanctions list' },
    })
    expect(await available(ctx, user.auth, 'USDT')).toBe(11_000n * USDT)
    expect(await locked(user)).toBe(0n)
    // The user sees the rejection and its reason.
    const mine = (await call(ctx.app, api.withdrawList, { page: 1, limit: 10 }, user.auth)).data as {
      list: { id: string; status: string; reason: string | null }[]
    }
    expect(mine.list.find((x) => x.id === w.id)).toMatchObject({
      status: 'rejected',
      reason: 'address on a sanctions list',
    })
    const before = await onChain(user.wallet.address)
    await sendAll(ctx)
    expect(await onChain(user.wallet.address)).toBe(before)
    expect((await reject('again, twice')).code).toBe(Code.FAIL)
    expect(await checkInvariants(ctx.db)).toEqual([])
    // The console's CSV files: the rejected withdrawal in units with its reason, and the decision in the audit log.
    const rejected = await download(ctx.app, api.adminWithdrawalsCsv, { status: 'rejected' }, viewer.headers)
    const row = rejected.lines?.find((line) => line[0] === w.id)
    expect(row?.slice(2, 11)).toEqual([
      user.wallet.address,
      'USDT',
      '10500',
      '1',
      '10499',
      user.wallet.address,
      'rejected',
      '',
      'address on a sanctions list',
    ])
    const audit = await download(ctx.app, api.adminAuditCsv, { target: `withdrawal:${w.id}` }, viewer.headers)
    expect(audit.lines?.slice(1).map((line) => [line[2], line[4]])).toEqual([[operator.address, 'withdrawal.reject']])
  }, 60_000)

  it('above the dual threshold two different operators must approve; the same one twice is refused', async () => {
    const user = await depositor(ctx, 25_000n * USDT)
    const w = await withdraw(user, 21_000n * USDT)
    const first = await approve(w.id, operator)
    expect(first).toMatchObject({
      code: Code.OK,
      msg: 'Your approval is recorded; a second, different operator must approve too',
      data: { status: 'review', approvals_needed: 2 },
    })
    const audits = await auditCount(ctx.db)
    // The same operator again, also twice at once: refused, one approval stays.
    const again = await Promise.all([approve(w.id, operator), approve(w.id, operator)])
    for (const res of again)
      expect(res).toMatchObject({
        code: Code.FAIL,
        msg: 'You have already approved this; a different operator must give the second approval',
      })
    expect(await auditCount(ctx.db)).toBe(audits)
    const listed = (await queue()).find((q) => q.id === w.id)
    expect(listed?.approvals.map((a) => a.admin)).toEqual([operator.address])
    const second = await approve(w.id, operator2)
    expect(second).toMatchObject({ code: Code.OK, data: { status: 'pending' } })
    expect((second.data as AdminWithdrawal).approvals.map((a) => a.admin)).toEqual([
      operator.address,
      operator2.address,
    ])
    const before = await onChain(user.wallet.address)
    await sendAll(ctx)
    expect(await onChain(user.wallet.address)).toBe(before + 21_000n * USDT - USDT)
  }, 60_000)

  describe('adjustments', () => {
    const adjust = (user: User, amount: bigint, who = admin, reason = 'compensation for an outage') =>
      call(
        ctx.app,
        api.adminAdjust,
        // Typed in USDT, as the console sends it.
        { address: user.wallet.address, coin: 'USDT', amount: formatAmount(amount, 6), reason },
        who.headers,
      )
    const systemBalance = async () => {
      const id = await systemAccount(ctx.db, 'USDT', 'adjustments')
      const row = await ctx.db
        .selectFrom('ledger_accounts')
        .select('balance')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      return BigInt(row.balance)
    }
    const count = async () => (await ctx.db.selectFrom('adjustments').select('id').execute()).length

    it('with two admins even the smallest adjustment waits for the second; applied as one ledger transfer', async () => {
      const user = await fundedUser(ctx)
      const [system, start] = [await systemBalance(), await available(ctx, user.auth, 'USDT')]
      const credit = await adjust(user, 1n)
      expect(credit).toMatchObject({
        code: Code.OK,
        msg: 'Adjustment recorded; a second, different admin must approve it',
        data: { status: 'pending', approvals_needed: 2, requested_by: admin.address },
      })
      expect(await available(ctx, user.auth, 'USDT')).toBe(start)
      const approveAs = (id: string, who: TestAdmin) => call(ctx.app, api.adminAdjustApprove, { id }, who.headers)
      expect((await approveAs((credit.data as Adjustment).id, admin2)).data).toMatchObject({ status: 'applied' })
      const big = await adjust(user, 25n * USDT)
      expect((await approveAs((big.data as Adjustment).id, admin2)).code).toBe(Code.OK)
      expect(await available(ctx, user.auth, 'USDT')).toBe(start + 25n * USDT + 1n)
      const debit = await adjust(user, -5n * USDT, admin2)
      expect(debit.data).toMatchObject({ status: 'pending', amount: (-5n * USDT).toString() })
      expect((await approveAs((debit.data as Adjustment).id, admin)).code).toBe(Code.OK)
      expect(await available(ctx, user.auth, 'USDT')).toBe(start + 20n * USDT + 1n)
      expect(await systemBalance()).toBe(system - 20n * USDT - 1n)
      const ledger = (
        await call(
          ctx.app,
          api.adminUserLedger,
          { address: user.wallet.address, type: 'admin_adjustment' },
          viewer.headers,
        )
      ).data as { list: { amount: string; reference: string }[] }
      expect(ledger.list.map((e) => e.amount)).toEqual([(-5n * USDT).toString(), (25n * USDT).toString(), '1'])
      // A debit the balance cannot cover is refused with nothing stored; so is a reason of blanks.
      const [n, audits] = [await count(), await auditCount(ctx.db)]
      expect(await adjust(user, -21n * USDT)).toMatchObject({ code: Code.FAIL, msg: 'Insufficient balance.' })
      expect((await adjust(user, 1n, admin, '     ')).code).toBe(Code.INVALID)
      expect((await adjust(user, 0n)).code).toBe(Code.INVALID)
      expect(await count()).toBe(n)
      expect(await auditCount(ctx.db)).toBe(audits)
      expect(await checkInvariants(ctx.db)).toEqual([])
    })

    it('pending until a different admin approves, exactly once; the requester cannot', async () => {
      const user = await fundedUser(ctx)
      const start = await available(ctx, user.auth, 'USDT')
      const res = await adjust(user, 1000n * USDT)
      expect(res).toMatchObject({
        msg: 'Adjustment recorded; a second, different admin must approve it',
        data: { status: 'pending', approvals_needed: 2, transfer_id: null },
      })
      const { id } = res.data as Adjustment
      expect(await available(ctx, user.auth, 'USDT')).toBe(start)
      const approveAs = (who: TestAdmin) => call(ctx.app, api.adminAdjustApprove, { id }, who.headers)
      expect(await approveAs(admin)).toMatchObject({
        code: Code.FAIL,
        msg: 'The admin who requested this adjustment cannot approve it; a different admin must',
      })
      // An operator is not an admin: refused before anything runs.
      expect((await approveAs(operator)).code).toBe(Code.SESSION_INVALID)
      expect(await available(ctx, user.auth, 'USDT')).toBe(start)
      // The second admin approving twice at once: applied exactly once.
      const both = await Promise.all([approveAs(admin2), approveAs(admin2)])
      const applied = both.find((r) => r.code === Code.OK) as (typeof both)[number]
      expect(both.map((r) => r.msg).sort()).toEqual([
        'Adjustment applied to the balance',
        'This adjustment is not waiting for approval',
      ])
      expect(applied).toMatchObject({ code: Code.OK, data: { status: 'applied', decided_by: admin2.address } })
      expect((applied.data as Adjustment).transfer_id).not.toBeNull()
      expect(await available(ctx, user.auth, 'USDT')).toBe(start + 1000n * USDT)
      // Applied once: approving again, also twice at once, changes nothing.
      for (const again of await Promise.all([approveAs(admin2), approveAs(admin2)]))
        expect(again.msg).toBe('This adjustment is not waiting for approval')
      expect(await available(ctx, user.auth, 'USDT')).toBe(start + 1000n * USDT)
      // Large debits need two admins as well; a rejection moves nothing.
      const debit = await adjust(user, -1000n * USDT, admin2)
      const debitId = (debit.data as Adjustment).id
      const rejected = await call(
        ctx.app,
        api.adminAdjustReject,
        { id: debitId, reason: 'duplicate request' },
        admin.headers,
      )
      expect(rejected).toMatchObject({
        code: Code.OK,
        data: { status: 'rejected', decided_by: admin.address, decision_reason: 'duplicate request' },
      })
      expect(await available(ctx, user.auth, 'USDT')).toBe(start + 1000n * USDT)
      const list = (await call(ctx.app, api.adminAdjustments, { address: user.wallet.address }, viewer.headers))
        .data as {
        list: Adjustment[]
      }
      expect(list.list.map((a) => a.status)).toEqual(['rejected', 'applied'])
      expect(await checkInvariants(ctx.db)).toEqual([])
    })
  })

  it('the solvency report and the job status read the books and the chain', async () => {
    const solvency = await call(ctx.app, api.adminSolvency, {}, viewer.headers)
    expect(solvency.code).toBe(Code.OK)
    const usdt = (solvency.data as { list: { coin: string; liabilities: string }[] }).list.find(
      (r) => r.coin === 'USDT',
    )
    expect(BigInt(usdt?.liabilities ?? -1)).toBeGreaterThan(0n)
    const jobs = (await call(ctx.app, api.adminJobs, {}, viewer.headers)).data as JobStatus
    expect(jobs.sender).toMatchObject({ pending: 0, sent: 0 })
    // This file's deposits were all credited: no payment intent waits for the watcher.
    expect(jobs.watcher).toMatchObject({ pending_intents: 0, oldest_pending_at: null })
    expect(jobs.settlement.last_done_day).toBeNull()
  })

  it('the operations history: 30 days through today from the books, and the release the server runs', async () => {
    const jobs = (await call(ctx.app, api.adminJobs, {}, viewer.headers)).data as JobStatus
    expect(jobs.release).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      commit: expect.any(String),
      node: process.versions.node,
    })
    const res = await call(ctx.app, api.adminHistory, {}, viewer.headers)
    expect(res.code, res.msg).toBe(Code.OK)
    const history = res.data as OpsHistory
    const today = new Date().toISOString().slice(0, 10)
    expect(history.days).toHaveLength(30)
    expect(history.days.at(-1)).toBe(today)
    expect(history.days[0]).toBe(new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10))
    const users = await ctx.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    expect(history.users.at(-1)).toBe(Number(users.n))
    expect(history.users.every((n, i) => i === 0 || n >= (history.users[i - 1] as number))).toBe(true)
    const usdt = history.assets.find((a) => a.coin === 'USDT') as OpsHistory['assets'][number]
    // What came in on chain today (this file's deposits), and what left: the withdrawal paid in the first test.
    const paidIn = await ctx.db
      .selectFrom('payment_intents')
      .select((eb) => eb.fn.sum<string>('amount').as('sum'))
      .where('status', '=', 'fulfilled')
      .where('asset', '=', 'USDT')
      .executeTakeFirstOrThrow()
    expect(BigInt(usdt.deposits.at(-1) as string)).toBe(BigInt(paidIn.sum))
    expect(BigInt(usdt.deposits.at(-1) as string)).toBeGreaterThan(0n)
    expect(BigInt(usdt.withdrawals.at(-1) as string)).toBeGreaterThanOrEqual(12_000n * USDT - USDT)
    expect(usdt.deposits.slice(0, -1).every((v) => v === '0')).toBe(true)
    expect(usdt.payouts).toHaveLength(30)
    expect(usdt.solvency).toHaveLength(30)
    // The console's viewers and up; nobody else.
    expect((await call(ctx.app, api.adminHistory, {}, {})).code).not.toBe(Code.OK)
  })
})
