import { API_BASE, type BusinessConfig, Code, type PledgeConfig } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configHistory } from '../src/modules/admin/settings.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { rateHistory } from '../src/modules/config/rate-history.ts'
import { getBusinessConfig, seedBusinessConfig, setBusinessConfig } from '../src/modules/config/service.ts'
import { createTestApp, dbKind, type TestContext } from './helpers.ts'

describe(`business configuration (${dbKind})`, () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestApp()
    await t.db.insertInto('assets').values({ code: 'PLG', symbol: 'PLG', decimals: 9, mint: null }).execute()
    await seedBusinessConfig(t.db)
  })
  afterAll(() => t.close())

  const pledge = async (path = `${API_BASE}/invest/invest_pledge/PLG`) => {
    const res = await t.app.inject({ method: 'POST', url: path, payload: {}, headers: { 'accept-language': 'en' } })
    return res.json() as { code: number; msg: string; data: PledgeConfig }
  }
  const versions = async () =>
    Number(
      (
        await t.db
          .selectFrom('config_versions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('seeds the demo configuration once', async () => {
    await seedBusinessConfig(t.db)
    expect(await versions()).toBe(1)
    expect(await getBusinessConfig(t.db)).toEqual(DEFAULT_BUSINESS_CONFIG)
  })

  it('/invest/invest_pledge/{product} converts the USDT minimum at the current price, on any spelling of the path', async () => {
    for (const path of [`${API_BASE}/invest/invest_pledge/PLG`, `${API_BASE}/invest/Invest_pledge/plg`]) {
      const res = await pledge(path)
      expect(res.code, path).toBe(Code.OK)
      // 100 USDT at 0.5 USDT per PLG = 200 PLG.
      expect(res.data).toMatchObject({
        symbol: 'PLG',
        decimals: 9,
        price: '500000',
        min_u: '100000000',
        min_amount: '200000000000',
      })
      expect(res.data.periods).toEqual([
        { days: 30, output_bps: 10_600, power_bps: 10_000 },
        { days: 90, output_bps: 12_000, power_bps: 15_000 },
        { days: 180, output_bps: 14_500, power_bps: 20_000 },
      ])
    }
    expect((await pledge(`${API_BASE}/invest/invest_pledge/BTC`)).code).toBe(Code.NOT_FOUND)
  })

  it('a new version applies to the next request and keeps who changed it; rounding favours the minimum', async () => {
    const next: BusinessConfig = {
      ...DEFAULT_BUSINESS_CONFIG,
      referencePrice: '300000',
      pledge: { ...DEFAULT_BUSINESS_CONFIG.pledge, minUsdt: '100000000' },
    }
    const id = await setBusinessConfig(t.db, next, 'operator:test')
    const stored = await t.db
      .selectFrom('config_versions')
      .select(['changed_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(stored.changed_by).toBe('operator:test')
    const { data } = await pledge()
    // 100 USDT / 0.3 = 333.333333333… PLG: rounded up, so the minimum stake is always worth at least 100 USDT.
    expect(data.min_amount).toBe('333333333334')
    expect(BigInt(data.min_amount) * 300_000n).toBeGreaterThanOrEqual(100_000_000n * 10n ** 9n)
    expect((BigInt(data.min_amount) - 1n) * 300_000n).toBeLessThan(100_000_000n * 10n ** 9n)
    await setBusinessConfig(t.db, DEFAULT_BUSINESS_CONFIG, 'operator:test')
  })

  it.each([
    ['an unknown field', { ...DEFAULT_BUSINESS_CONFIG, extra: 1 }],
    ['a float amount', { ...DEFAULT_BUSINESS_CONFIG, referencePrice: '0.5' }],
    ['a zero price', { ...DEFAULT_BUSINESS_CONFIG, referencePrice: '0' }],
    [
      'a finance period that is not 7/30/90/180',
      { ...DEFAULT_BUSINESS_CONFIG, finance: [{ days: 14, powerBps: 1, outputBps: 1 }] },
    ],
    [
      'repeated pledge periods',
      {
        ...DEFAULT_BUSINESS_CONFIG,
        pledge: {
          minUsdt: '1',
          periods: [
            { days: 30, outputBps: 1, powerBps: 1 },
            { days: 30, outputBps: 2, powerBps: 2 },
          ],
        },
      },
    ],
    ['descending fuel tiers', { ...DEFAULT_BUSINESS_CONFIG, fuelTiers: [3000, 1000] }],
    [
      'repeated node codes',
      {
        ...DEFAULT_BUSINESS_CONFIG,
        nodeLevels: [DEFAULT_BUSINESS_CONFIG.nodeLevels[0], DEFAULT_BUSINESS_CONFIG.nodeLevels[0]],
      },
    ],
    ['a negative rate', { ...DEFAULT_BUSINESS_CONFIG, referralRewards: [{ level: 1, rateBps: -5 }] }],
  ])('refuses %s with nothing stored', async (_name, value) => {
    const before = await versions()
    await expect(setBusinessConfig(t.db, value, 'operator:test')).rejects.toMatchObject({ code: Code.INVALID })
    expect(await versions()).toBe(before)
  })

  it('a version stored before a field existed, at any depth, takes it from the defaults; a broken one is named', async () => {
    const { referralGuard, ...older } = structuredClone(DEFAULT_BUSINESS_CONFIG)
    const stored = { ...older, referralGuard: { minStakeUsdt: '5' }, trade: { ...older.trade, feeBps: 7 } }
    await t.db
      .insertInto('config_versions')
      .values({ value: JSON.stringify(stored), changed_by: 'operator:test' })
      .execute()
    const config = await getBusinessConfig(t.db)
    expect(config.referralGuard).toEqual({ minStakeUsdt: '5', directPerLevel: referralGuard.directPerLevel })
    expect(config.trade.feeBps).toBe(7)
    // The one object every request reads cannot be changed by one of them.
    expect(() => {
      config.trade.feeBps = 1
    }).toThrow(TypeError)

    // Written by hand with a wrong type: the start (seedBusinessConfig) and every read stop with the version's id.
    const { id } = await t.db
      .insertInto('config_versions')
      .values({ value: JSON.stringify({ ...stored, fuelTiers: 'many' }), changed_by: 'operator:test' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const problem = new RegExp(`business configuration version ${id} is not valid: /fuelTiers`)
    await expect(seedBusinessConfig(t.db)).rejects.toThrow(problem)
    await expect(getBusinessConfig(t.db)).rejects.toThrow(problem)
    // A valid version saved after it is in force again.
    await setBusinessConfig(t.db, DEFAULT_BUSINESS_CONFIG, 'operator:test')
    expect(await getBusinessConfig(t.db)).toEqual(DEFAULT_BUSINESS_CONFIG)
    // The broken version is no longer in force but still read (the rate history, the console's history): every stored
    // version is checked at the start, so it still stops the start with its id, and its readers name it too.
    await expect(seedBusinessConfig(t.db)).rejects.toThrow(problem)
    await expect(rateHistory(t.db)).rejects.toThrow(problem)
    await expect(configHistory(t.db, { page: 1, limit: 50 })).rejects.toThrow(problem)
    await t.db.deleteFrom('config_versions').where('id', '=', id).execute()
    await seedBusinessConfig(t.db)
    expect((await rateHistory(t.db)).products.length).toBeGreaterThan(0)
  })

  it('the pledge configuration needs no session and answers in the request language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}/invest/invest_pledge/nope`,
      payload: {},
      headers: { 'accept-language': 'ja' },
    })
    expect(res.json()).toMatchObject({ code: Code.NOT_FOUND, msg: '見つかりません' })
  })
})
