import { randomUUID } from 'node:crypto'
import { api, Code, type DataOf, type TeamMember } from '@solpledge/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transact } from '../src/lib/commit.ts'
import { addDays, utcDay } from '../src/lib/day.ts'
import { deposit } from '../src/modules/finance/service.ts'
import { buyNode } from '../src/modules/node/service.ts'
import { pledgeConfig, stakeFromBalance, stakeTerms } from '../src/modules/pledge/service.ts'
import { settleThrough } from '../src/modules/settlement/service.ts'
import { bindMember, teamIndex } from '../src/modules/team/service.ts'
import {
  call,
  createSeededApp,
  creditAvailable,
  dbKind,
  fundedMember,
  type Member,
  type SeededApp,
  sized,
  TestWallet,
} from './helpers.ts'

const PLG = 1_000_000_000n
const USDT = 1_000_000n

/** A small deterministic generator (mulberry32), so a failure can be replayed from the printed seed. */
function random(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: T[]) => list[Math.floor(next() * list.length)] as T,
  }
}

describe(`team figures (${dbKind})`, () => {
  let t: SeededApp
  let sequence = 0
  beforeAll(async () => {
    t = await createSeededApp()
  })
  afterAll(() => t.close())

  /** Binds a new user under `parentId` exactly as the first login does (insert and bindMember in one transaction). */
  const bind = (parentId: string) =>
    t.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('users')
        .values({ address: `member-${sequence++}-${randomUUID().slice(0, 8)}`, parent_id: parentId })
        .returning('id')
        .executeTakeFirstOrThrow()
      await bindMember(trx, row.id)
      return row.id
    })

  const fund = (id: string, asset: string, amount: bigint) => creditAvailable(t.db, id, asset, amount)

  async function stake(userId: string, plg: bigint, days: number) {
    await fund(userId, 'PLG', plg)
    const config = await pledgeConfig(t.db, 'PLG')
    const terms = stakeTerms(config, plg, days)
    await t.db.transaction().execute((trx) => stakeFromBalance(trx, { userId, asset: 'PLG', decimals: 9, terms }))
  }

  async function financeDeposit(userId: string, usdt: bigint, days: number) {
    await fund(userId, 'USDT', usdt)
    await deposit(t.db, transact(t.db), userId, { days, amount: usdt.toString() })
  }

  /** Every user's figures by brute force: positions in force summed over a walk of each downline. */
  async function bruteForce() {
    const users = await t.db.selectFrom('users').select(['id', 'parent_id']).execute()
    const { rows: own } = await sql<{ user_id: string; power: string; performance: string }>`
      select user_id, sum(power) as power, sum(performance) as performance from (
        select user_id, power, usdt_value as performance from stakes where status = 'mining'
        union all select user_id, power, 0 from finance_deposits where status = 'active'
        union all select user_id, div(price_usdt * power_bonus_bps, 10000), 0 from user_nodes
      ) p group by user_id`.execute(t.db)
    const personal = new Map(
      own.map((r) => [r.user_id, { power: BigInt(r.power), performance: BigInt(r.performance) }]),
    )
    const children = new Map<string, string[]>()
    for (const u of users) if (u.parent_id) children.set(u.parent_id, [...(children.get(u.parent_id) ?? []), u.id])
    const figures = new Map<
      string,
      {
        team_count: number
        direct_count: number
        personal_power: bigint
        performance: bigint
        team_power: bigint
        team_performance: bigint
        push: bigint
        leg: bigint
      }
    >()
    for (const u of users) {
      let count = 0
      let power = 0n
      let performance = 0n
      const stack = [...(children.get(u.id) ?? [])]
      while (stack.length > 0) {
        const id = stack.pop() as string
        count++
        power += personal.get(id)?.power ?? 0n
        performance += personal.get(id)?.performance ?? 0n
        stack.push(...(children.get(id) ?? []))
      }
      figures.set(u.id, {
        team_count: count,
        direct_count: children.get(u.id)?.length ?? 0,
        personal_power: personal.get(u.id)?.power ?? 0n,
        performance: personal.get(u.id)?.performance ?? 0n,
        team_power: power,
        team_performance: performance,
        push: 0n,
        leg: 0n,
      })
    }
    for (const [id, f] of figures)
      for (const child of children.get(id) ?? []) {
        const c = figures.get(child) as typeof f
        f.push += c.performance
        const leg = c.personal_power + c.team_power
        if (leg > f.leg) f.leg = leg
      }
    return figures
  }

  /** The maintained figures of every user equal the brute force; the team read of a sample of users too. */
  async function expectExact(sample: string[]) {
    const expected = await bruteForce()
    const rows = await t.db.selectFrom('user_power').selectAll().execute()
    const stored = new Map(rows.map((r) => [r.user_id, r]))
    for (const [id, f] of expected) {
      const row = stored.get(id)
      const actual = {
        team_count: Number(row?.team_count ?? 0),
        direct_count: Number(row?.direct_count ?? 0),
        personal_power: BigInt(row?.personal_power ?? 0),
        performance: BigInt(row?.performance ?? 0),
        team_power: BigInt(row?.team_power ?? 0),
        team_performance: BigInt(row?.team_performance ?? 0),
      }
      const { push: _p, leg: _l, ...want } = f
      expect(actual, `user ${id}`).toEqual(want)
    }
    for (const id of sample) {
      const f = expected.get(id) as NonNullable<ReturnType<typeof expected.get>>
      const read = await teamIndex(t.db, { id, address: 'x' })
      expect(read, `team read of ${id}`).toMatchObject({
        team_count: f.team_count,
        direct_count: f.direct_count,
        team_power: f.team_power.toString(),
        personal_power: f.personal_power.toString(),
        team_performance: f.team_performance.toString(),
        personal_performance: f.performance.toString(),
        push_performance: f.push.toString(),
        largest_leg: f.leg.toString(),
        small_market_fuel: (f.team_power - f.leg).toString(),
      })
    }
  }

  // About 900 binds and positions on PostgreSQL (a chain of 500; 200 on PGlite: `sized`), and every user checked by
  // brute force four times: the timeout is a bound for a loaded machine (60 s was too short on one), not a wait.
  it('keeps every user figure equal to a brute-force walk through binds, stakes, deposits, nodes and expiries', async () => {
    const seed = Number(process.env.TEAM_SEED ?? Date.now() % 100_000)
    const rng = random(seed)
    console.log(`team property seed ${seed} (replay: TEAM_SEED=${seed})`)
    const today = utcDay()
    const ids = [t.root.id]
    // Shapes: a random tree, a deep chain (500 long; ancestry is kept in segments of 32 levels) and a wide fan under one
    // member, bound in interleaved order.
    const CHAIN = sized(500, 200)
    const chain = [t.root.id]
    let fanParent: string | undefined
    const stakers: string[] = []
    const step = async () => {
      const roll = rng.next()
      if (roll < 0.35) ids.push(await bind(rng.pick(ids)))
      else if (roll < 0.7) {
        const id = await bind(chain[chain.length - 1] as string)
        chain.push(id)
        ids.push(id)
      } else if (roll < 0.85) {
        fanParent ??= rng.pick(ids)
        ids.push(await bind(fanParent))
      } else if (roll < 0.93) {
        const who = rng.next() < 0.5 ? (chain[chain.length - 1] as string) : rng.pick(ids)
        await stake(who, BigInt(200 + rng.int(5000)) * PLG + BigInt(rng.int(1000)), rng.pick([30, 90]))
        stakers.push(who)
      } else {
        const who = rng.pick(ids)
        await financeDeposit(who, BigInt(10 + rng.int(900)) * USDT + BigInt(rng.int(1000)), rng.pick([7, 30]))
      }
    }
    while (chain.length < CHAIN) await step()
    await buyNode(t.db, transact(t.db), { id: chain[CHAIN / 2] as string }, 'junior').catch(async () => {
      await fund(chain[CHAIN / 2] as string, 'USDT', 500n * USDT)
      await buyNode(t.db, transact(t.db), { id: chain[CHAIN / 2] as string }, 'junior')
    })
    const sample = () =>
      [t.root.id, chain[1], chain[CHAIN / 2], chain[CHAIN - 1], fanParent, rng.pick(ids), rng.pick(ids)] as string[]
    expect(ids.length).toBeGreaterThan(CHAIN * 1.4)
    await expectExact(sample())

    // The 7-day deposits expire: power leaves the users and every ancestor.
    await settleThrough(t.db, addDays(today, 7), { product: 'PLG' })
    expect(
      Number(
        (
          await t.db
            .selectFrom('finance_deposits')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('status', '=', 'expired')
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBeGreaterThan(0)
    await expectExact(sample())

    // More binds and positions on the changed tree, then the 30-day stakes and deposits expire too.
    for (let i = 0; i < CHAIN * 0.3; i++) await step()
    await expectExact(sample())
    await settleThrough(t.db, addDays(today, 30), { product: 'PLG' })
    expect(
      Number(
        (
          await t.db
            .selectFrom('stakes')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('status', '=', 'expired')
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBeGreaterThan(0)
    await expectExact(sample())
  }, 300_000)

  it('refuses to change a binding', async () => {
    const a = await bind(t.root.id)
    const b = await bind(t.root.id)
    await expect(t.db.updateTable('users').set({ parent_id: a }).where('id', '=', b).execute()).rejects.toThrow(
      /permanent/,
    )
  })

  describe('API', () => {
    let a: Member
    let b: Member
    let c: Member
    let d: Member
    const member = (parent: { address: string }) => fundedMember(t, parent.address)
    beforeAll(async () => {
      // root → a → (b → d), c: bound through the real login.
      a = await member(t.root)
      b = await member(a.wallet)
      c = await member(a.wallet)
      d = await member(b.wallet)
      for (const [who, plg] of [
        [a, 1000n],
        [b, 400n],
        [c, 600n],
        [d, 300n],
      ] as const) {
        await fund(who.id, 'PLG', plg * PLG)
        const res = await call(t.app, api.pledgeStake, { amount: (plg * PLG).toString(), days: 30 }, who.auth)
        expect(res.code).toBe(Code.OK)
      }
    })

    it('answers the team page figures of a three-level team', async () => {
      const res = await call(t.app, api.teamIndex, {}, a.auth)
      expect(res.code).toBe(Code.OK)
      // 0.5 USDT per PLG, power 100%: value = power = plg / 2 USDT.
      const usdt = (plg: bigint) => ((plg * USDT) / 2n).toString()
      expect(res.data).toEqual({
        decimals: 6,
        team_count: 3,
        direct_count: 2,
        team_performance: usdt(1300n),
        personal_performance: usdt(1000n),
        push_performance: usdt(1000n),
        team_power: usdt(1300n),
        personal_power: usdt(1000n),
        // Legs: b 200 + 150 = 350 USDT, c 300: the largest is b's.
        largest_leg: usdt(700n),
        small_market_fuel: usdt(600n),
        invite_code: a.wallet.address,
      })
      const leaf = await call(t.app, api.teamIndex, {}, d.auth)
      expect(leaf.data).toMatchObject({ team_count: 0, direct_count: 0, team_power: '0', small_market_fuel: '0' })
    })

    it('lists the direct members newest first, page by page', async () => {
      const first = await call(t.app, api.teamList, { page: 1, limit: 10 }, a.auth)
      expect(first.code).toBe(Code.OK)
      const data = first.data as DataOf<typeof api.teamList>
      expect(data.total).toBe(2)
      expect(data.list.map((m) => m.address)).toEqual([c.wallet.address, b.wallet.address])
      expect(data.list[1]).toMatchObject({
        id: b.id,
        performance: (200n * USDT).toString(),
        team_performance: (150n * USDT).toString(),
        team_count: 1,
        direct_count: 1,
      } satisfies Partial<TeamMember>)
      const second = await call(t.app, api.teamList, { page: 2, limit: 1 }, a.auth)
      expect((second.data as DataOf<typeof api.teamList>).list.map((m) => m.address)).toEqual([b.wallet.address])
      expect((await call(t.app, api.teamList, { page: 0, limit: 10 }, a.auth)).code).toBe(Code.INVALID)
      expect((await call(t.app, api.teamList, { page: 1, limit: 10 })).code).toBe(Code.SESSION_INVALID)
    })

    it('details a direct member and refuses anyone else in the request language', async () => {
      const ok = await call(t.app, api.teamDetail, { address: b.wallet.address }, a.auth)
      expect(ok.code).toBe(Code.OK)
      expect((ok.data as DataOf<typeof api.teamDetail>).member).toMatchObject({ id: b.id, team_count: 1 })
      const grandchild = await call(t.app, api.teamDetail, { address: d.wallet.address }, a.auth)
      expect(grandchild).toMatchObject({ code: Code.FAIL, msg: 'This address is not one of your direct members' })
      const upward = await call(t.app, api.teamDetail, { address: a.wallet.address }, b.auth)
      expect(upward.code).toBe(Code.FAIL)
      const unknown = await call(
        t.app,
        api.teamDetail,
        { address: new TestWallet().address },
        { ...a.auth, lang: 'zh' },
      )
      expect(unknown).toMatchObject({ code: Code.FAIL, msg: '该地址不是您的直推成员' })
    })
  })
})
