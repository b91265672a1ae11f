import { api, type BusinessConfig, Code, type UserNode } from '@solpledge/contract'
import { USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { seedBusinessConfig, setBusinessConfig } from '../src/modules/config/service.ts'
import { balances, checkInvariants, systemAccount } from '../src/modules/ledger/service.ts'
import { powerOf } from '../src/modules/power/service.ts'
import {
  addOffChainAssets,
  call,
  createTestApp,
  dbKind,
  fundedMember,
  type Member,
  seedRoot,
  type TestContext,
  type TestWallet,
} from './helpers.ts'

interface Level {
  code: string
  price_usdt: string
  supply_cap: number
  sold: number
  remaining: number
  one_per_user: boolean
}

describe(`nodes (${dbKind})`, () => {
  let t: TestContext
  let root: TestWallet
  beforeAll(async () => {
    t = await createTestApp()
    await addOffChainAssets(t.db)
    await seedBusinessConfig(t.db)
    root = await seedRoot(t.db)
  })
  afterAll(() => t.close())

  /** A logged-in user under `parent` holding `amount` USDT available, paid in from the system 'chain' account. */
  const user = (amount: bigint, parent: { address: string } = root) => fundedMember(t, parent.address, { USDT: amount })
  type User = Member

  const available = async (u: User) => (await balances(t.db, u.id)).USDT?.available ?? 0n
  const buy = (u: User, level: string) => call(t.app, api.nodeBuy, { level, pay: 'balance' }, u.auth)
  const mine = async (u: User) => {
    const res = await call(t.app, api.myNodes, {}, u.auth)
    expect(res.code).toBe(Code.OK)
    return (res.data as { list: UserNode[] }).list
  }
  const levels = async () => {
    const res = await call(t.app, api.nodeLevel, {})
    expect(res.code).toBe(Code.OK)
    return (res.data as { list: Level[] }).list
  }
  const level = async (code: string) => (await levels()).find((l) => l.code === code) as Level
  const nodeCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('user_nodes')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const sales = async () =>
    (await t.db.selectFrom('ledger_transfers').selectAll().where('type', '=', 'node_purchase').execute()).length

  /** The configuration with some levels changed. */
  async function configure(levels: BusinessConfig['nodeLevels']) {
    await setBusinessConfig(t.db, { ...DEFAULT_BUSINESS_CONFIG, nodeLevels: levels }, 'test')
  }

  it('lists the configured levels with sold and remaining, without a session', async () => {
    const list = await levels()
    expect(list.map((l) => l.code)).toEqual(['junior', 'senior', 'super'])
    expect(list[0]).toEqual({
      code: 'junior',
      price_usdt: String(500n * USDT),
      supply_cap: 1000,
      sold: 0,
      remaining: 1000,
      power_bonus_bps: 1000,
      dividend_weight: 1,
      one_per_user: true,
    })
  })

  it('buys from the balance: exactly the price moves to node_sales and the node is listed', async () => {
    const u = await user(1200n * USDT)
    const salesAccount = await systemAccount(t.db, 'USDT', 'node_sales')
    const before = await t.db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('id', '=', salesAccount)
      .executeTakeFirstOrThrow()
    const res = await buy(u, 'junior')
    expect(res).toMatchObject({ code: Code.OK, msg: 'Node purchased.' })
    const node = res.data as UserNode
    expect(node).toMatchObject({
      level: 'junior',
      price_usdt: String(500n * USDT),
      power_bonus_bps: 1000,
      dividend_weight: 1,
      dividends: '0',
    })
    expect(await available(u)).toBe(700n * USDT)
    const after = await t.db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('id', '=', salesAccount)
      .executeTakeFirstOrThrow()
    expect(BigInt(after.balance) - BigInt(before.balance)).toBe(500n * USDT)
    const move = await t.db
      .selectFrom('ledger_transfers')
      .select(['type', 'amount', 'reference'])
      .where('idempotency_key', '=', `node:${node.id}`)
      .executeTakeFirstOrThrow()
    expect(move).toEqual({ type: 'node_purchase', amount: String(500n * USDT), reference: `node:${node.id}` })
    expect(await mine(u)).toEqual([node])
    expect(await level('junior')).toMatchObject({ sold: 1, remaining: 999 })
    expect(await checkInvariants(t.db)).toEqual([])
  })

  it('refuses with nothing changed: unknown level, already held, insufficient balance, bad bodies', async () => {
    const u = await user(600n * USDT)
    expect(await buy(u, 'junior')).toMatchObject({ code: Code.OK })
    const nodes = await nodeCount()
    const moved = await sales()

    expect(await buy(u, 'mythic')).toMatchObject({ code: Code.INVALID, msg: 'Unknown node level' })
    expect(await buy(u, 'junior')).toMatchObject({ code: Code.FAIL, msg: 'You already hold a node of this level' })
    // 100 USDT left: not enough for a senior node (2000 USDT).
    expect(await buy(u, 'senior')).toMatchObject({ code: Code.FAIL, msg: 'Insufficient balance.' })
    for (const body of [
      { level: 'junior' },
      { level: 'junior', pay: 'chain' },
      { level: 7, pay: 'balance' },
      { level: '', pay: 'balance' },
      { level: 'junior', pay: 'balance', extra: 1 },
      {},
    ])
      expect((await call(t.app, api.nodeBuy, body, u.auth)).code, JSON.stringify(body)).toBe(Code.INVALID)
    expect((await call(t.app, api.nodeBuy, { level: 'junior', pay: 'balance' })).code).not.toBe(Code.OK)

    expect(await available(u)).toBe(100n * USDT)
    expect(await nodeCount()).toBe(nodes)
    expect(await sales()).toBe(moved)
    expect(await mine(u)).toHaveLength(1)
    expect(await checkInvariants(t.db)).toEqual([])
  })

  it('refuses a sold-out level with nothing changed', async () => {
    await configure([
      {
        code: 'tiny',
        priceUsdt: String(10n * USDT),
        supplyCap: 1,
        powerBonusBps: 100,
        dividendWeight: 1,
        onePerUser: true,
      },
    ])
    const a = await user(100n * USDT)
    const b = await user(100n * USDT)
    expect((await buy(a, 'tiny')).code).toBe(Code.OK)
    expect(await level('tiny')).toMatchObject({ supply_cap: 1, sold: 1, remaining: 0 })
    const res = await buy(b, 'tiny')
    expect(res).toMatchObject({ code: Code.FAIL, msg: 'This node level is sold out' })
    expect(await available(b)).toBe(100n * USDT)
    expect(await mine(b)).toEqual([])
    // A level no longer configured cannot be bought, but nodes already sold keep their price.
    await configure(DEFAULT_BUSINESS_CONFIG.nodeLevels)
    expect((await buy(b, 'tiny')).code).toBe(Code.INVALID)
    expect((await mine(a))[0]).toMatchObject({ level: 'tiny', price_usdt: String(10n * USDT) })
  })

  it('never sells past the cap: 20 concurrent buyers of a level with cap 5 get exactly 5 nodes', async () => {
    await configure([
      ...DEFAULT_BUSINESS_CONFIG.nodeLevels,
      {
        code: 'rare',
        priceUsdt: String(10n * USDT),
        supplyCap: 5,
        powerBonusBps: 100,
        dividendWeight: 1,
        onePerUser: true,
      },
    ])
    const buyers = await Promise.all(Array.from({ length: 20 }, () => user(50n * USDT)))
    const results = await Promise.all(buyers.map((u) => buy(u, 'rare')))
    expect(results.filter((r) => r.code === Code.OK)).toHaveLength(5)
    expect(results.filter((r) => r.msg === 'This node level is sold out')).toHaveLength(15)
    const rows = await t.db.selectFrom('user_nodes').select('user_id').where('level', '=', 'rare').execute()
    expect(rows).toHaveLength(5)
    const paid = await Promise.all(buyers.map(available))
    expect(paid.filter((b) => b === 40n * USDT)).toHaveLength(5)
    expect(paid.filter((b) => b === 50n * USDT)).toHaveLength(15)
    expect(
      await t.db
        .selectFrom('ledger_transfers')
        .select('id')
        .where('type', '=', 'node_purchase')
        .where(
          'reference',
          'in',
          (await t.db.selectFrom('user_nodes').select('id').where('level', '=', 'rare').execute()).map(
            (r) => `node:${r.id}`,
          ),
        )
        .execute(),
    ).toHaveLength(5)
    expect(await level('rare')).toMatchObject({ sold: 5, remaining: 0 })
    expect(await checkInvariants(t.db)).toEqual([])
  })

  it('one per user: the same user buying 10 times at once gets exactly one; others do not see it', async () => {
    const u = await user(10_000n * USDT)
    const other = await user(0n)
    const results = await Promise.all(Array.from({ length: 10 }, () => buy(u, 'senior')))
    expect(results.filter((r) => r.code === Code.OK)).toHaveLength(1)
    expect(results.filter((r) => r.msg === 'You already hold a node of this level')).toHaveLength(9)
    expect(await mine(u)).toHaveLength(1)
    expect(await available(u)).toBe(8000n * USDT)
    expect(await mine(other)).toEqual([])
    expect(await checkInvariants(t.db)).toEqual([])
  })

  it("adds the node's power to the buyer and every ancestor on a three-level chain; a refusal adds none", async () => {
    const a = await user(0n)
    const b = await user(0n, a)
    const c = await user(2400n * USDT, b)
    const rootId = (
      await t.db.selectFrom('users').select('id').where('address', '=', root.address).executeTakeFirstOrThrow()
    ).id
    const rootBefore = await powerOf(t.db, rootId)
    const res = await buy(c, 'senior')
    expect(res.code).toBe(Code.OK)
    const node = res.data as UserNode
    // Senior: 2000 USDT × 25 % = 500 USDT of power, no performance.
    expect(await powerOf(t.db, c.id)).toEqual({
      personal_power: 500n * USDT,
      team_power: 0n,
      performance: 0n,
      team_performance: 0n,
    })
    for (const ancestor of [a, b])
      expect(await powerOf(t.db, ancestor.id)).toEqual({
        personal_power: 0n,
        team_power: 500n * USDT,
        performance: 0n,
        team_performance: 0n,
      })
    expect((await powerOf(t.db, rootId)).team_power - rootBefore.team_power).toBe(500n * USDT)
    const event = await t.db
      .selectFrom('power_events')
      .select(['user_id', 'power'])
      .where('source', '=', 'node')
      .where('source_id', '=', node.id)
      .executeTakeFirstOrThrow()
    expect(event).toEqual({ user_id: c.id, power: String(500n * USDT) })
    // Already held, then too poor: refused, and the power is unchanged everywhere.
    expect((await buy(c, 'senior')).code).toBe(Code.FAIL)
    expect((await buy(c, 'junior')).msg).toBe('Insufficient balance.')
    expect((await powerOf(t.db, c.id)).personal_power).toBe(500n * USDT)
    expect((await powerOf(t.db, a.id)).team_power).toBe(500n * USDT)
    expect(await checkInvariants(t.db)).toEqual([])
  })
})
