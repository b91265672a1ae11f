import {
  type AdminAsset,
  type AdminChange,
  type AssetVersion,
  api,
  type BusinessConfig,
  Code,
  type ConfigVersion,
} from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyDueChanges } from '../src/modules/admin/changes.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { getBusinessConfig, seedBusinessConfig } from '../src/modules/config/service.ts'
import { auditCount, signedInAdmin, type TestAdmin } from './admin.ts'
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

describe(`operator console configuration (${dbKind})`, () => {
  let t: TestContext
  let admin: TestAdmin
  let viewer: TestAdmin
  let user: Member

  beforeAll(async () => {
    t = await createTestApp()
    await addOffChainAssets(t.db)
    await t.db
      .updateTable('assets')
      .set({ mint: new TestWallet().address, withdraw_enabled: true, is_user_recharge: true })
      .where('code', '=', 'USDT')
      .execute()
    await seedBusinessConfig(t.db)
    user = await fundedMember(t, (await seedRoot(t.db)).address, { PLG: 10_000n * PLG, USDT: 10_000n * USDT })
    admin = await signedInAdmin(t.app, t.db, 'admin')
    viewer = await signedInAdmin(t.app, t.db, 'viewer')
  })
  afterAll(() => t.close())

  /** The staking configuration as the app reads it, at /invest/invest_pledge/PLG. */
  const pledgeConfig = async () =>
    (await call(t.app, { ...api.pledgeConfig, path: api.pledgeConfig.path.replace(':product', 'PLG') }, {})).data
  const current = async () => (await call(t.app, api.adminConfig, {}, viewer.headers)).data as ConfigVersion
  const save = (base: string, value: BusinessConfig, who = admin) =>
    call(t.app, api.adminConfigSave, { base_version: base, value }, who.headers)
  const versionCount = async () => (await t.db.selectFrom('config_versions').select('id').execute()).length

  it('an operator edits the pledge minimum: the next user request sees the new minimum and its refusal message', async () => {
    const before = await pledgeConfig()
    expect(before).toMatchObject({ min_u: (100n * USDT).toString(), min_amount: (200n * PLG).toString() })
    const stake = () => call(t.app, api.pledgeStake, { amount: (250n * PLG).toString(), days: 30 }, user.auth)
    const version = await current()
    const value = { ...version.value, pledge: { ...version.value.pledge, minUsdt: (150n * USDT).toString() } }
    const res = await save(version.id, value)
    // Raising the minimum pays nobody more: one admin's decision, in force at once.
    expect(res).toMatchObject({ code: Code.OK, msg: 'Saved' })
    const saved = res.data as AdminChange
    expect(saved).toMatchObject({ kind: 'config.save', status: 'applied', raises_payouts: false })
    expect(saved.changes).toEqual([{ path: 'pledge.minUsdt', before: '100000000', after: '150000000' }])
    expect((await current()).changed_by).toBe(admin.address)
    expect(await pledgeConfig()).toMatchObject({
      min_u: (150n * USDT).toString(),
      min_amount: (300n * PLG).toString(),
    })
    expect(await stake()).toMatchObject({
      code: Code.FAIL,
      msg: 'The amount of the pledge cannot be less than 300PLG',
    })
    // Back to 100: the same stake goes through on the next request.
    const back = await save((await current()).id, {
      ...value,
      pledge: { ...value.pledge, minUsdt: (100n * USDT).toString() },
    })
    expect(back.code).toBe(Code.OK)
    expect((await stake()).code).toBe(Code.OK)
  })

  it('keeps every version with who, when and what changed, newest first', async () => {
    const history = (await call(t.app, api.adminConfigHistory, { limit: 2 }, viewer.headers)).data as {
      list: ConfigVersion[]
      total: number
    }
    expect(history.total).toBe(await versionCount())
    expect(history.list.map((v) => v.changes)).toEqual([
      [{ path: 'pledge.minUsdt', before: '150000000', after: '100000000' }],
      [{ path: 'pledge.minUsdt', before: '100000000', after: '150000000' }],
    ])
    // The last page ends with the seeded version, which changed nothing.
    const last = (await call(t.app, api.adminConfigHistory, { page: history.total, limit: 1 }, viewer.headers))
      .data as { list: ConfigVersion[] }
    expect(last.list).toMatchObject([{ changed_by: 'seed', changes: [] }])
    const audit = await call(t.app, api.adminAudit, { action: 'config.save' }, viewer.headers)
    expect((audit.data as { list: { details: unknown }[] }).list[0]?.details).toMatchObject({
      changes: [{ path: 'pledge.minUsdt', before: '150000000', after: '100000000' }],
    })
  })

  it('refuses a save made from an older version, and an invalid configuration, with nothing stored', async () => {
    const version = await current()
    const [count, audits] = [await versionCount(), await auditCount(t.db)]
    const stale = await save((BigInt(version.id) - 1n).toString(), version.value)
    expect(stale).toMatchObject({
      code: Code.FAIL,
      msg: `Someone else saved a change meanwhile (now version ${version.id}); reload and try again`,
    })
    const period = version.value.pledge.periods[0] as BusinessConfig['pledge']['periods'][number]
    const invalid: BusinessConfig[] = [
      { ...version.value, pledge: { ...version.value.pledge, periods: [period, period] } },
      { ...version.value, fuelTiers: [10, 5] },
      { ...version.value, settlementHourUtc: 24 },
      { ...version.value, pledge: { ...version.value.pledge, minUsdt: '-1' } },
    ]
    for (const value of invalid) expect((await save(version.id, value)).code).toBe(Code.INVALID)
    // Sane bounds (docs/admin.md#bounds): a value beyond any plausible one is refused naming the field and its bound.
    const level = version.value.nodeLevels[0] as BusinessConfig['nodeLevels'][number]
    for (const [value, msg] of [
      [
        { ...version.value, pledge: { ...version.value.pledge, minUsdt: '99999999999999999999000000' } },
        'pledge.minUsdt cannot be more than 1,000,000 USDT',
      ],
      [
        {
          ...version.value,
          nodeLevels: [level, { ...level, code: 'mega', priceUsdt: (10n ** 7n * USDT + 1n).toString() }],
        },
        'nodeLevels[1].priceUsdt cannot be more than 10,000,000 USDT',
      ],
      [
        { ...version.value, nodePoolDaily: (10n ** 8n * PLG + 1n).toString() },
        'nodePoolDaily cannot be more than 100,000,000 PLG',
      ],
      [
        {
          ...version.value,
          referralRewards: [
            { level: 1, rateBps: 2000 },
            { level: 2, rateBps: 2000 },
          ],
        },
        'The referral rates together (40 %) cannot be more than 30 %',
      ],
    ] as const)
      expect(await save(version.id, value as BusinessConfig)).toMatchObject({ code: Code.INVALID, msg })
    // Rates above 100 % and multiples above ×100 are refused by the schema.
    for (const value of [
      { ...version.value, referralRewards: [{ level: 1, rateBps: 10_001 }] },
      { ...version.value, pledge: { ...version.value.pledge, periods: [{ ...period, powerBps: 1_000_001 }] } },
      { ...version.value, finance: version.value.finance.map((f) => ({ ...f, outputBps: 10_001 })) },
    ])
      expect((await save(version.id, value)).code).toBe(Code.INVALID)
    // In the caller's language.
    const zh = await call(
      t.app,
      api.adminConfigSave,
      {
        base_version: version.id,
        value: { ...version.value, pledge: { ...version.value.pledge, minUsdt: '99999999999999999999000000' } },
      },
      { ...admin.headers, lang: 'zh' },
    )
    expect(zh.msg).toBe('pledge.minUsdt 不能大于 1,000,000 USDT')
    expect(await versionCount()).toBe(count)
    expect(await auditCount(t.db)).toBe(audits)
  })

  it('every business constant is in the one form: node levels, finance, referral, fuel, settlement hour, price, rank', async () => {
    const version = await current()
    const value: BusinessConfig = {
      ...version.value,
      nodeLevels: version.value.nodeLevels.map((level) => ({ ...level, supplyCap: level.supplyCap + 1 })),
      finance: version.value.finance.map((f) => ({ ...f, outputBps: f.outputBps + 1 })),
      referralRewards: [{ level: 1, rateBps: 1200 }],
      fuelTiers: [1000, 2000],
      settlementHourUtc: 2,
      referencePrice: '400000',
      rankIntervalSeconds: 600,
    }
    // More node supply, finance output and referral rewards, and lower fuel tiers raise payouts: announced now, in
    // force after the notice period (with one admin, no second approval is possible).
    const scheduled = await save(version.id, value)
    expect(scheduled).toMatchObject({ code: Code.OK, data: { status: 'scheduled', raises_payouts: true } })
    expect(await getBusinessConfig(t.db)).toEqual(version.value)
    const at = new Date((scheduled.data as AdminChange).effective_at as string)
    expect(at.getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000)
    expect(await applyDueChanges(t.db, new Date(at.getTime() - 1000))).toEqual([])
    expect(await applyDueChanges(t.db, at)).toMatchObject([{ status: 'applied' }])
    expect(await getBusinessConfig(t.db)).toEqual(value)
    expect((await call(t.app, api.fuel, {}, user.auth)).data).toMatchObject({ tiers: [1000, 2000] })
    expect((await call(t.app, api.homePrice, {})).data).toMatchObject({ price: '0.4' })
    const levels = (await call(t.app, api.nodeLevel, {})).data as { list: { supply_cap: number }[] }
    expect(levels.list.map((l) => l.supply_cap)).toEqual(value.nodeLevels.map((l) => l.supplyCap))
    // Back: referral levels 2 and 3 come back (a raise), so it is scheduled too.
    const restored = await save((await current()).id, version.value)
    expect(restored.data).toMatchObject({ status: 'scheduled' })
    await applyDueChanges(t.db, new Date((restored.data as AdminChange).effective_at as string))
    expect(await getBusinessConfig(t.db)).toEqual(version.value)
  })

  it('RANK_INTERVAL_MS seeds the rank interval once; a version that has it keeps the operator value', async () => {
    const fresh = await createTestApp()
    try {
      await seedBusinessConfig(fresh.db, { rankIntervalSeconds: 2 })
      expect((await getBusinessConfig(fresh.db)).rankIntervalSeconds).toBe(2)
      await seedBusinessConfig(fresh.db, { rankIntervalSeconds: 3600 })
      expect((await getBusinessConfig(fresh.db)).rankIntervalSeconds).toBe(2)
      // A version stored before the field existed gets it added as a new version.
      const { rankIntervalSeconds: _, ...older } = DEFAULT_BUSINESS_CONFIG
      await fresh.db
        .insertInto('config_versions')
        .values({ value: JSON.stringify(older), changed_by: 'old' })
        .execute()
      await seedBusinessConfig(fresh.db, { rankIntervalSeconds: 7 })
      const newest = await fresh.db
        .selectFrom('config_versions')
        .selectAll()
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(newest.changed_by).toBe('seed')
      expect((await getBusinessConfig(fresh.db)).rankIntervalSeconds).toBe(7)
    } finally {
      await fresh.close()
    }
  })

  describe('asset settings', () => {
    const assets = async () =>
      ((await call(t.app, api.adminAssets, {}, viewer.headers)).data as { list: AdminAsset[] }).list
    const usdt = async () => (await assets()).find((a) => a.coin === 'USDT') as AdminAsset
    const saveAsset = (asset: AdminAsset, changes: Partial<AdminAsset>) => {
      const { symbol: _s, decimals: _d, mint: _m, version, updated_by: _u, updated_at: _a, ...settings } = asset
      return call(t.app, api.adminAssetSave, { ...settings, ...changes, base_version: version }, admin.headers)
    }
    const withdraw = (amount: bigint) =>
      call(t.app, api.withdraw, { coin: 'USDT', amount: amount.toString() }, user.auth)

    it('withdrawal minimum, fee, review threshold and recharge flag apply to the next request, versioned', async () => {
      const before = await usdt()
      expect(before.version).toBe('1')
      // Typed in USDT: '50' is 50 USDT.
      const res = await saveAsset(before, {
        min_withdraw: '50',
        withdraw_fee: '2',
        review_threshold: '500',
        is_user_recharge: false,
      })
      // One admin: the rules cannot apply, so even a weaker review threshold is applied at once.
      expect(res).toMatchObject({ code: Code.OK, data: { status: 'applied', target: 'asset:USDT' } })
      expect(await usdt()).toMatchObject({ version: '2', updated_by: admin.address })
      expect(await withdraw(20n * USDT)).toMatchObject({
        code: Code.FAIL,
        msg: 'The withdrawal amount cannot be less than 50 USDT',
      })
      expect((await withdraw(60n * USDT)).data).toMatchObject({ status: 'pending', fee: (2n * USDT).toString() })
      expect((await withdraw(600n * USDT)).data).toMatchObject({ status: 'review' })
      const wallet = (await call(t.app, api.userWallet, {}, user.auth)).data as {
        list: { coin: string; is_user_recharge: number; min_atm_money: string }[]
      }
      expect(wallet.list.find((a) => a.coin === 'USDT')).toMatchObject({
        is_user_recharge: 0,
        min_atm_money: (50n * USDT).toString(),
      })
      const history = (await call(t.app, api.adminAssetHistory, { coin: 'USDT' }, viewer.headers)).data as {
        list: AssetVersion[]
      }
      expect(history.list).toHaveLength(1)
      expect(history.list[0]).toMatchObject({ id: '2', coin: 'USDT', changed_by: admin.address })
      expect(history.list[0]?.changes.map((c) => c.path)).toEqual([
        'is_user_recharge',
        'min_withdraw',
        'review_threshold',
        'withdraw_fee',
      ])
    })

    it('refuses stale versions and inconsistent settings with nothing changed', async () => {
      const asset = await usdt()
      const audits = await auditCount(t.db)
      expect((await saveAsset({ ...asset, version: '1' }, {})).msg).toBe(
        'Someone else saved a change meanwhile (now version 2); reload and try again',
      )
      for (const changes of [
        { min_withdraw: '1', withdraw_fee: '1' },
        { review_threshold: null, dual_review_threshold: '0.001' },
        { review_threshold: '5000', dual_review_threshold: '4999' },
        { withdraw_fee: '0.0000001' },
      ]) {
        const res = await saveAsset(asset, changes)
        expect(res.code, JSON.stringify(changes)).toBe(Code.INVALID)
      }
      // Beyond any plausible value: refused with the field and its bound named, in the caller's language.
      for (const [changes, msg] of [
        [{ min_withdraw: '99999999999999999999' }, 'min_withdraw cannot be more than 1,000,000 USDT'],
        [{ withdraw_fee: '10001' }, 'withdraw_fee cannot be more than 10,000 USDT'],
        [{ review_threshold: '1000000000.000001' }, 'review_threshold cannot be more than 1,000,000,000 USDT'],
        [{ withdraw_fee: '60' }, 'The withdrawal fee must be less than the withdrawal minimum'],
        [{ withdraw_fee: '0.0000001' }, 'withdraw_fee must be an amount of USDT with at most 6 decimals'],
      ] as const)
        expect(await saveAsset(asset, changes)).toMatchObject({ code: Code.INVALID, msg })
      expect((await saveAsset(asset, { coin: 'DOGE' })).code).toBe(Code.INVALID)
      expect(await usdt()).toEqual(asset)
      expect(await auditCount(t.db)).toBe(audits)
    })
  })
})
