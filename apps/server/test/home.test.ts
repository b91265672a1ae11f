import { existsSync } from 'node:fs'
import { api, Code, type DataOf, tokenIcon } from '@solpledge/contract'
import { PLG } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { setBusinessConfig } from '../src/modules/config/service.ts'
import { call, createSeededApp, creditAvailable, dbKind, fundedMember, type SeededApp } from './helpers.ts'

describe(`home figures (${dbKind})`, () => {
  let t: SeededApp
  beforeAll(async () => {
    t = await createSeededApp()
  })
  afterAll(() => t.close())

  const member = (parent: string) => fundedMember(t, parent)

  it('gives the price as USDT per token with the pair, without a session, and follows the configuration', async () => {
    const res = await call(t.app, api.homePrice, {})
    expect(res).toMatchObject({
      code: Code.OK,
      data: { price: '0.5', pair: 'PLG/USDT', symbol: 'PLG', quote: 'USDT', source: 'reference' },
    })
    await setBusinessConfig(t.db, { ...DEFAULT_BUSINESS_CONFIG, referencePrice: '1234567' }, 'test')
    expect((await call(t.app, api.homePrice, {})).data).toMatchObject({ price: '1.234567' })
    await setBusinessConfig(t.db, DEFAULT_BUSINESS_CONFIG, 'test')
  })

  it("lists the platform's tokens with their decimals, mints and shipped icons, without a session", async () => {
    const res = await call(t.app, api.homeTokens, {})
    expect(res.code).toBe(Code.OK)
    // addOffChainAssets: PLG and USDT without a mint.
    expect(res.data).toEqual({
      list: [
        { symbol: 'PLG', mint: null, decimals: 9, icon: '/tokens/token.svg' },
        { symbol: 'USDT', mint: null, decimals: 6, icon: '/tokens/usdt.svg' },
      ],
    })
    // Every icon is a file the web app ships (no external URL: the CSP allows images of this site only).
    for (const symbol of ['PLG', 'USDT', 'SOL', 'OTHER'])
      expect(existsSync(new URL(`../../web/public${tokenIcon(symbol)}`, import.meta.url)), symbol).toBe(true)
    expect((await call(t.app, api.homeTokens, { extra: 1 } as never)).code).toBe(Code.INVALID)
  })

  it('values each asset of the wallet in USDT: USDT at par, PLG at the valuation price, rounded down', async () => {
    const u = await member(t.root.address)
    await creditAvailable(t.db, u.id, 'PLG', 3n * PLG + 3n)
    await creditAvailable(t.db, u.id, 'USDT', 12_345_678n)
    const values = async () =>
      Object.fromEntries(
        ((await call(t.app, api.userWallet, {}, u.auth)).data as DataOf<typeof api.userWallet>).list.map((a) => [
          a.coin,
          a.usdt_value,
        ]),
      )
    // 0.5 USDT per PLG: 3.000000003 PLG are worth 1.5 USDT (the 3 base units are worth less than one USDT unit).
    expect(await values()).toEqual({ PLG: '1500000', USDT: '12345678' })
    await setBusinessConfig(t.db, { ...DEFAULT_BUSINESS_CONFIG, referencePrice: '1234567' }, 'test')
    expect(await values()).toEqual({ PLG: '3703701', USDT: '12345678' })
    await setBusinessConfig(t.db, DEFAULT_BUSINESS_CONFIG, 'test')
  })

  it("answers the home figures: today's figures of the staking module with the price", async () => {
    const leader = await member(t.root.address)
    const direct = await member(leader.address)
    const deeper = await member(direct.address)
    for (const [who, plg] of [
      [leader, 1000n],
      [direct, 400n],
      [deeper, 600n],
    ] as const) {
      await creditAvailable(t.db, who.id, 'PLG', plg * PLG)
      expect((await call(t.app, api.pledgeStake, { amount: (plg * PLG).toString(), days: 30 }, who.auth)).code).toBe(
        Code.OK,
      )
    }
    const home = await call(t.app, api.homeIndex, {}, leader.auth)
    expect(home.code).toBe(Code.OK)
    const today = await call(t.app, api.today, {}, leader.auth)
    const t2 = today.data as Record<string, string>
    expect(home.data).toEqual({
      price: '0.5',
      pair: 'PLG/USDT',
      decimals: 6,
      day: t2.day,
      recommended_power: t2.recommended_power,
      direct_new_power: t2.direct_new_power,
      team_power: t2.team_power,
      personal_power: t2.personal_power,
    })
    // 0.5 USDT per PLG at 100% power: 500, 200 and 300 USDT of power.
    expect(home.data).toMatchObject({
      personal_power: '500000000',
      team_power: '500000000',
      direct_new_power: '200000000',
      recommended_power: '500000000',
    })
    expect((await call(t.app, api.homeIndex, {})).code).toBe(Code.SESSION_INVALID)
  })

  it('ranks the new power a stake just made: the ranking agrees with Home without waiting for the hourly snapshot', async () => {
    const leader = await member(t.root.address)
    const direct = await member(leader.address)
    const rank = async (type: 'direct' | 'team') => {
      const res = await call(t.app, api.ranking, { type }, leader.auth)
      expect(res.code).toBe(Code.OK)
      return res.data as DataOf<typeof api.ranking>
    }
    // A first read computes the month's snapshot (the leader has no new power yet) with its update times.
    const before = await rank('direct')
    expect(before.mine).toEqual({ rank: null, power: '0' })
    expect(before.computed_at).not.toBeNull()
    expect(Date.parse(before.next_update_at)).toBe(Date.parse(before.computed_at as string) + 3_600_000)
    await creditAvailable(t.db, direct.id, 'PLG', 480n * PLG)
    expect((await call(t.app, api.pledgeStake, { amount: (480n * PLG).toString(), days: 30 }, direct.auth)).code).toBe(
      Code.OK,
    )
    const home = (await call(t.app, api.homeIndex, {}, leader.auth)).data as DataOf<typeof api.homeIndex>
    expect(home).toMatchObject({ direct_new_power: '240000000', recommended_power: '240000000' })
    const [directTab, teamTab] = [await rank('direct'), await rank('team')]
    expect(directTab.mine.power).toBe(home.direct_new_power)
    expect(teamTab.mine.power).toBe(home.recommended_power)
    expect(directTab.mine.rank).not.toBeNull()
    expect(Date.parse(directTab.computed_at as string)).toBeGreaterThan(Date.parse(before.computed_at as string))
    // Nothing new: the next read answers the same snapshot.
    expect((await rank('direct')).computed_at).toBe(directTab.computed_at)
  })
})
