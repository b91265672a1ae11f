import { api, Code, type LedgerEntry } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays } from '../src/lib/day.ts'
import { transfer, userAccount } from '../src/modules/ledger/service.ts'
import { settleThrough } from '../src/modules/settlement/service.ts'
import { addStake, PLG, PLG_UNIT } from './fixtures/settlement.ts'
import {
  addOffChainAssets,
  call,
  createTestApp,
  creditAvailable,
  dbKind,
  member,
  seedRoot,
  type TestContext,
} from './helpers.ts'

const DAY = '2025-03-10'

describe(`the user's ledger history, /user/user/moneyLog (${dbKind})`, () => {
  let t: TestContext
  let auth: { token: string; address: string }
  let userId: string
  const log = async (body: Record<string, unknown>) => {
    const res = await call(t.app, api.moneyLog, { page: 1, limit: 50, ...body }, auth)
    expect(res.code, res.msg).toBe(Code.OK)
    return (res.data as { list: LedgerEntry[]; total: number }).list
  }

  beforeAll(async () => {
    t = await createTestApp()
    await addOffChainAssets(t.db)
    const user = await member(t.app, (await seedRoot(t.db)).address)
    userId = user.id
    auth = user.auth
    // USDT: a top-up, then a withdrawal request (available → locked) as modules/withdrawals makes it.
    await creditAvailable(t.db, userId, 'USDT', 300_000_000n)
    await t.db.transaction().execute(async (trx) =>
      transfer(trx, {
        debit: await userAccount(trx, userId, 'USDT', 'available'),
        credit: await userAccount(trx, userId, 'USDT', 'locked'),
        asset: 'USDT',
        amount: 100_000_000n,
        type: 'withdraw_lock',
        key: 'test:withdraw_lock',
        reference: 'withdrawal:1',
      }),
    )
    // PLG: a stake made the day before, paid for DAY by the daily settlement.
    await addStake(t.db, { userId, amount: 30n * PLG_UNIT, days: 30, startDay: addDays(DAY, -1) })
    await settleThrough(t.db, DAY, { product: PLG, batchSize: 10 })
  })
  afterAll(() => t.close())

  it('carries the day a settlement credit pays for, and no day on other entries', async () => {
    const entries = await log({ coin: 'PLG' })
    expect(entries.map((e) => e.type)).toEqual(['settlement', 'stake', 'deposit'])
    expect(entries[0]).toMatchObject({ type: 'settlement', account: 'available', day: DAY, amount: '1200000000' })
    expect(entries.slice(1).map((e) => e.day)).toEqual([null, null])
  })

  it('shows a withdrawal request as leaving available and entering locked', async () => {
    const entries = await log({ coin: 'USDT', type: 'withdraw_lock' })
    expect(entries.map((e) => [e.account, e.amount])).toEqual([
      ['locked', '100000000'],
      ['available', '-100000000'],
    ])
    expect(new Set(entries.map((e) => e.id)).size).toBe(1)
  })

  it('filters by type', async () => {
    expect((await log({ type: 'settlement' })).map((e) => e.coin)).toEqual(['PLG'])
    expect((await log({ coin: 'USDT', type: 'deposit' })).map((e) => e.amount)).toEqual(['300000000'])
    expect(await log({ coin: 'USDT', type: 'trade' })).toEqual([])
    expect((await log({})).length).toBe(6)
  })

  it('refuses an unknown or malformed type without a 5xx, and changes nothing', async () => {
    const before = await t.db
      .selectFrom('ledger_transfers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .execute()
    for (const type of ['bogus', '', 'SETTLEMENT', 'settlement ', 1, null, ['settlement'], 'x'.repeat(10_000)]) {
      const res = await call(t.app, api.moneyLog, { page: 1, limit: 10, type }, auth)
      expect(res.status, String(type)).toBeLessThan(500)
      expect(res.code, String(type)).toBe(Code.INVALID)
    }
    const after = await t.db
      .selectFrom('ledger_transfers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .execute()
    expect(after).toEqual(before)
  })
})
