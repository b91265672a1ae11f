import { api, Code, type LedgerEntry } from '@solpledge/contract'
import { PLG } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays } from '../src/lib/day.ts'
import { EXPORTS_PER_MINUTE } from '../src/lib/route.ts'
import { fullStatement, transfer, userAccount } from '../src/modules/ledger/service.ts'
import { settleThrough } from '../src/modules/settlement/service.ts'
import { addStake, PLG_CODE } from './fixtures/settlement.ts'
import {
  addOffChainAssets,
  call,
  createTestApp,
  creditAvailable,
  dbKind,
  download,
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
    await addStake(t.db, { userId, amount: 30n * PLG, days: 30, startDay: addDays(DAY, -1) })
    await settleThrough(t.db, DAY, { product: PLG_CODE, batchSize: 10 })
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

  it('downloads the same entries as a CSV file: amounts and the balance after each in units, filtered alike', async () => {
    const file = await download(t.app, api.moneyLogCsv, { coin: 'USDT' }, auth)
    expect(file.status).toBe(200)
    expect(file.headers['content-disposition']).toBe('attachment; filename="solpledge-history.csv"')
    const [header, ...rows] = file.lines ?? []
    expect(header).toEqual(api.moneyLogCsv.csv?.columns)
    const entries = await log({ coin: 'USDT' })
    expect(rows.map((row) => [row[0], row[1], row[2], row[3]])).toEqual(
      entries.map((e) => [e.created_at, e.type, 'USDT', e.account]),
    )
    // The top-up of 300, then 100 moved from available to locked: newest first, each account's balance after it.
    expect(rows.map((row) => [row[3], row[4], row[5], row[7]])).toEqual([
      ['locked', '100', '100', 'withdrawal:1'],
      ['available', '-100', '200', 'withdrawal:1'],
      ['available', '300', '300', ''],
    ])
    // A type filter chooses the rows; the balance after still counts every entry of the account.
    const locks = (await download(t.app, api.moneyLogCsv, { coin: 'USDT', type: 'withdraw_lock' }, auth)).lines
    expect(locks?.slice(1).map((row) => row[5])).toEqual(['100', '200'])
    expect((await download(t.app, api.moneyLogCsv, {}, auth)).lines?.length).toBe(1 + 6)
  })

  it('reads the full statement page by page without losing or repeating an entry, whatever the page size', async () => {
    const all = async (pageSize: number) => {
      const rows = []
      for await (const entry of fullStatement(t.db, { userId, pageSize })) rows.push(entry)
      return rows
    }
    const whole = await all(500)
    expect(whole.length).toBe(6)
    expect(await all(1)).toEqual(whole)
    expect(await all(4)).toEqual(whole)
  })

  it('refuses a CSV file without a session or with a bad filter, as the envelope', async () => {
    const anonymous = await download(t.app, api.moneyLogCsv, {})
    expect(anonymous.refusal?.code).toBe(Code.SESSION_INVALID)
    const bad = await download(t.app, api.moneyLogCsv, { type: 'bogus' }, auth)
    expect([bad.status, bad.refusal?.code]).toEqual([200, Code.INVALID])
  })

  it('limits downloads per client address: past the limit, HTTP 429 with Retry-After and the envelope', async () => {
    const answers = []
    for (let i = 0; i <= EXPORTS_PER_MINUTE; i++) answers.push(await download(t.app, api.moneyLogCsv, {}, auth))
    const limited = answers.at(-1)
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(EXPORTS_PER_MINUTE)
    expect([limited?.status, limited?.refusal?.code]).toEqual([429, Code.RATE_LIMITED])
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0)
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
