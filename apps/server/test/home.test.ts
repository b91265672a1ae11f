import { api, Code } from '@solpledge/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { seedBusinessConfig, setBusinessConfig } from '../src/modules/config/service.ts'
import {
  addOffChainAssets,
  call,
  createTestApp,
  creditAvailable,
  dbKind,
  login,
  seedRoot,
  type TestContext,
  TestWallet,
} from './helpers.ts'

const PLG = 1_000_000_000n

describe(`home figures (${dbKind})`, () => {
  let t: TestContext
  let rootAddress: string
  beforeAll(async () => {
    t = await createTestApp()
    await addOffChainAssets(t.db)
    await seedBusinessConfig(t.db)
    rootAddress = (await seedRoot(t.db)).address
  })
  afterAll(() => t.close())

  async function member(parent: string) {
    const wallet = new TestWallet()
    const { token } = (await login(t.app, wallet, parent)).data as { token: string }
    const { id } = await t.db
      .selectFrom('users')
      .select('id')
      .where('address', '=', wallet.address)
      .executeTakeFirstOrThrow()
    return { id, address: wallet.address, auth: { token, address: wallet.address } }
  }

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

  it("answers the home figures: today's figures of the staking module with the price", async () => {
    const leader = await member(rootAddress)
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
})
