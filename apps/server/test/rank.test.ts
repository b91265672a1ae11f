import { randomUUID } from 'node:crypto'
import { api, Code, type DataOf } from '@solpledge/contract'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { utcDay } from '../src/lib/day.ts'
import { monthOf, ranking, refreshRankings, shortAddress } from '../src/modules/rank/service.ts'
import { bindMember } from '../src/modules/team/service.ts'
import { call, createTestApp, dbKind, login, seedRoot, type TestContext, TestWallet } from './helpers.ts'

const HOUR = 3_600_000

describe(`monthly ranking (${dbKind})`, () => {
  let t: TestContext
  let rootId: string
  let sequence = 0
  let sourceId = 0
  beforeAll(async () => {
    t = await createTestApp()
    await t.db.insertInto('assets').values({ code: 'USDT', symbol: 'USDT', decimals: 6, mint: null }).execute()
    const root = await seedRoot(t.db)
    rootId = (await t.db.selectFrom('users').select('id').where('address', '=', root.address).executeTakeFirstOrThrow())
      .id
  })
  afterAll(() => t.close())
  beforeEach(async () => {
    await t.db.deleteFrom('rank_snapshots').execute()
    await t.db.deleteFrom('power_events').execute()
  })

  const bind = (parentId: string) =>
    t.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('users')
        .values({
          address: `R${String(sequence++).padStart(6, '0')}${randomUUID().replaceAll('-', '')}`,
          parent_id: parentId,
        })
        .returning(['id', 'address'])
        .executeTakeFirstOrThrow()
      await bindMember(trx, row.id)
      return row
    })

  /** New power as the positions record it, on `day` at `at`. */
  const event = (userId: string, power: bigint, day: string, at = new Date(`${day}T12:00:00Z`)) =>
    t.db
      .insertInto('power_events')
      .values({
        user_id: userId,
        day,
        source: 'stake',
        source_id: String(++sourceId),
        power: power.toString(),
        created_at: at,
      })
      .execute()

  const read = (userId: string, type: 'direct' | 'team', now: Date) =>
    ranking(t.db, userId, type, { intervalMs: HOUR, now })

  it('ranks fewer than 30 users: only those with new power, by power', async () => {
    const leaders = [await bind(rootId), await bind(rootId), await bind(rootId)]
    const quiet = await bind(rootId)
    for (const [i, leader] of leaders.entries()) {
      const member = await bind(leader.id)
      await event(member.id, BigInt(100 * (i + 1)), '2030-03-05')
    }
    const now = new Date('2030-03-10T08:00:00Z')
    expect(await refreshRankings(t.db, { intervalMs: HOUR, now })).toHaveLength(2)
    const direct = await read(leaders[0]?.id as string, 'direct', now)
    expect(direct.month).toBe('2030-03')
    expect(direct.list).toEqual([
      { rank: 1, address: shortAddress(leaders[2]?.address as string), power: '300' },
      { rank: 2, address: shortAddress(leaders[1]?.address as string), power: '200' },
      { rank: 3, address: shortAddress(leaders[0]?.address as string), power: '100' },
    ])
    expect(direct.mine).toEqual({ rank: 3, power: '100' })
    expect((await read(quiet.id, 'direct', now)).mine).toEqual({ rank: null, power: '0' })
    expect(direct.computed_at).toBe(now.toISOString())
    expect(direct.next_update_at).toBe(new Date(now.getTime() + HOUR).toISOString())
    // Team tab: the root's whole downline, then each leader's.
    const team = await read(rootId, 'team', now)
    expect(team.list.map((r) => r.power)).toEqual(['600', '300', '200', '100'])
    expect(team.mine).toEqual({ rank: 1, power: '600' })
  })

  it('orders equal power by who reached it first, then by the lower user id', async () => {
    const [a, b, c] = [await bind(rootId), await bind(rootId), await bind(rootId)]
    const day = '2030-04-02'
    // a reaches 500 at 10:00 (two events), b at 09:00, c at 09:00 as well: b and c tie on time, b has the lower id.
    await event((await bind(a.id)).id, 200n, day, new Date('2030-04-02T08:00:00Z'))
    await event((await bind(a.id)).id, 300n, day, new Date('2030-04-02T10:00:00Z'))
    await event((await bind(c.id)).id, 500n, day, new Date('2030-04-02T09:00:00Z'))
    await event((await bind(b.id)).id, 500n, day, new Date('2030-04-02T09:00:00Z'))
    const now = new Date('2030-04-03T00:00:00Z')
    await refreshRankings(t.db, { intervalMs: HOUR, now })
    const list = (await read(a.id, 'direct', now)).list
    expect(list.map((r) => r.address)).toEqual([b, c, a].map((u) => shortAddress(u.address)))
    expect(list.map((r) => r.power)).toEqual(['500', '500', '500'])
    expect(Number(b.id)).toBeLessThan(Number(c.id))
  })

  it('shows the top 30 and the position of a user outside it', async () => {
    const users: { id: string; address: string }[] = []
    for (let i = 0; i < 35; i++) {
      const leader = await bind(rootId)
      await event((await bind(leader.id)).id, BigInt(1000 - i), '2030-05-20')
      users.push(leader)
    }
    const now = new Date('2030-05-21T00:00:00Z')
    await refreshRankings(t.db, { intervalMs: HOUR, now })
    const outside = await read(users[32]?.id as string, 'direct', now)
    expect(outside.list).toHaveLength(30)
    expect(outside.list.map((r) => r.rank)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
    expect(outside.list[29]).toEqual({ rank: 30, address: shortAddress(users[29]?.address as string), power: '971' })
    expect(outside.mine).toEqual({ rank: 33, power: '968' })
    expect(outside.list.some((r) => r.address === shortAddress(users[32]?.address as string))).toBe(false)
  })

  it('counts the team tab over the whole downline, exactly, deep chains included', async () => {
    const chain = [await bind(rootId)]
    for (let i = 0; i < 80; i++) chain.push(await bind(chain[chain.length - 1]?.id as string))
    const side = await bind(chain[10]?.id as string)
    await event(chain[80]?.id as string, 7n, '2030-06-01')
    await event(chain[40]?.id as string, 5n, '2030-06-15')
    await event(side.id, 3n, '2030-06-30')
    const now = new Date('2030-06-30T23:00:00Z')
    await refreshRankings(t.db, { intervalMs: HOUR, now })
    const expected = (i: number) => (i < 80 ? 7n : 0n) + (i < 40 ? 5n : 0n) + (i <= 10 ? 3n : 0n)
    for (const i of [0, 9, 10, 11, 39, 40, 79])
      expect((await read(chain[i]?.id as string, 'team', now)).mine.power, `chain[${i}]`).toBe(expected(i).toString())
    expect((await read(rootId, 'team', now)).mine.power).toBe('15')
    // Direct tab: only direct members count.
    expect((await read(chain[79]?.id as string, 'direct', now)).mine.power).toBe('7')
    expect((await read(chain[10]?.id as string, 'direct', now)).mine.power).toBe('3')
    expect((await read(chain[0]?.id as string, 'direct', now)).mine.power).toBe('0')
  })

  it('resets at the month boundary (UTC) and gives the month before a final snapshot', async () => {
    const leader = await bind(rootId)
    const member = await bind(leader.id)
    await event(member.id, 100n, '2030-07-31', new Date('2030-07-31T10:00:00Z'))
    const july = new Date('2030-07-31T20:00:00Z')
    await refreshRankings(t.db, { intervalMs: HOUR, now: july })
    expect((await read(leader.id, 'direct', july)).mine.power).toBe('100')
    // Later on the last day, and on the first day of August.
    await event(member.id, 50n, '2030-07-31', new Date('2030-07-31T23:59:59Z'))
    await event(member.id, 7n, '2030-08-01', new Date('2030-08-01T00:00:01Z'))
    const august = new Date('2030-08-01T00:30:00Z')
    const done = await refreshRankings(t.db, { intervalMs: HOUR, now: august })
    expect(done).toEqual(
      expect.arrayContaining([
        { month: '2030-07-01', type: 'direct', entries: 1 },
        { month: '2030-08-01', type: 'direct', entries: 1 },
      ]),
    )
    const now = await read(leader.id, 'direct', august)
    expect(now).toMatchObject({ month: '2030-08', mine: { rank: 1, power: '7' } })
    // July's final snapshot has everything of July.
    const julyFinal = await t.db
      .selectFrom('rank_snapshots as s')
      .innerJoin('rank_entries as e', 'e.snapshot_id', 's.id')
      .select('e.power')
      .where('s.month', '=', '2030-07-01')
      .where('s.type', '=', 'direct')
      .where('e.user_id', '=', leader.id)
      .execute()
    expect(julyFinal).toEqual([{ power: '150' }])
    // Nothing more for July afterwards.
    expect(await refreshRankings(t.db, { intervalMs: HOUR, now: new Date('2030-08-01T02:00:00Z') })).toEqual([
      { month: '2030-08-01', type: 'direct', entries: 1 },
      { month: '2030-08-01', type: 'team', entries: 2 },
    ])
  })

  it('recomputes only when the interval has passed, and keeps one snapshot per month and type', async () => {
    const leader = await bind(rootId)
    const member = await bind(leader.id)
    await event(member.id, 10n, '2030-09-01')
    const start = new Date('2030-09-01T13:00:00Z')
    expect(await refreshRankings(t.db, { intervalMs: HOUR, now: start })).toHaveLength(2)
    await event(member.id, 5n, '2030-09-01')
    const soon = new Date(start.getTime() + HOUR - 1)
    expect(await refreshRankings(t.db, { intervalMs: HOUR, now: soon })).toEqual([])
    expect((await read(leader.id, 'direct', soon)).mine.power).toBe('10')
    const later = new Date(start.getTime() + HOUR)
    expect(await refreshRankings(t.db, { intervalMs: HOUR, now: later })).toHaveLength(2)
    const after = await read(leader.id, 'direct', later)
    expect(after).toMatchObject({ mine: { power: '15' }, computed_at: later.toISOString() })
    expect(after.next_update_at).toBe(new Date(later.getTime() + HOUR).toISOString())
    const snapshots = await t.db.selectFrom('rank_snapshots').select(['month', 'type']).execute()
    expect(snapshots).toHaveLength(2)
  })

  it('computes once when two instances run the job at the same time', async () => {
    const leader = await bind(rootId)
    await event((await bind(leader.id)).id, 10n, '2030-10-01', new Date('2030-10-01T04:00:00Z'))
    const now = new Date('2030-10-01T05:00:00Z')
    const [first, second] = await Promise.all([
      refreshRankings(t.db, { intervalMs: HOUR, now }),
      refreshRankings(t.db, { intervalMs: HOUR, now }),
    ])
    expect(first.length + second.length).toBe(2)
    expect(await t.db.selectFrom('rank_snapshots').selectAll().execute()).toHaveLength(2)
  })

  it('recomputes when new power was recorded since the snapshot, before the interval has passed', async () => {
    const leader = await bind(rootId)
    const member = await bind(leader.id)
    await event(member.id, 10n, '2030-11-02', new Date('2030-11-02T09:00:00Z'))
    const first = new Date('2030-11-02T10:00:00Z')
    expect(await refreshRankings(t.db, { intervalMs: HOUR, now: first })).toHaveLength(2)
    // A stake at 10:05: the next pass (or a read through the API) recomputes both tabs at once.
    await event(member.id, 5n, '2030-11-02', new Date('2030-11-02T10:05:00Z'))
    const soon = new Date('2030-11-02T10:06:00Z')
    expect(await refreshRankings(t.db, { intervalMs: HOUR, now: soon })).toHaveLength(2)
    expect((await read(leader.id, 'direct', soon)).mine.power).toBe('15')
    expect(await refreshRankings(t.db, { intervalMs: HOUR, now: new Date('2030-11-02T10:07:00Z') })).toEqual([])
  })

  it('answers the API for both tabs (a number or a numeric string too), fresh after new power, in the current month', async () => {
    const wallet = new TestWallet()
    const root = await t.db.selectFrom('users').select('address').where('id', '=', rootId).executeTakeFirstOrThrow()
    const session = (await login(t.app, wallet, root.address)).data as { token: string }
    const auth = { token: session.token, address: wallet.address }
    const me = (
      await t.db.selectFrom('users').select('id').where('address', '=', wallet.address).executeTakeFirstOrThrow()
    ).id
    // The first read computes the month's first snapshot: empty, with when it was computed.
    const empty = await call(t.app, api.ranking, { type: 'direct' }, auth)
    expect(empty.code).toBe(Code.OK)
    expect(empty.data).toMatchObject({ list: [], mine: { rank: null, power: '0' } })
    expect((empty.data as DataOf<typeof api.ranking>).computed_at).not.toBeNull()
    // New power: the next read recomputes (no waiting for the hourly job).
    await event((await bind(me)).id, 42n, utcDay(), new Date())
    // Team tab: the root has the same 42 at the same moment and ranks first with its lower id.
    for (const [type, rank] of [
      ['direct', 1],
      ['team', 2],
    ] as const) {
      const res = await call(t.app, api.ranking, { type }, auth)
      expect(res.code).toBe(Code.OK)
      const data = res.data as DataOf<typeof api.ranking>
      expect(data).toMatchObject({ type, month: monthOf(new Date()).slice(0, 7), mine: { rank, power: '42' } })
      expect(data.list[rank - 1]).toEqual({ rank, address: shortAddress(wallet.address), power: '42' })
      expect(data.list[0]?.address).toMatch(/^.{4}….{4}$/)
    }
    // The spec's clients (docs/product.md#spec-paths) send the tab as a number (1 direct, 2 team) or a numeric string.
    for (const [type, name] of [
      [1, 'direct'],
      ['2', 'team'],
    ] as const)
      expect((await call(t.app, api.ranking, { type } as never, auth)).data).toMatchObject({ type: name })
    for (const type of ['weekly', 0, 3, '3', '01', 1.5, null])
      expect((await call(t.app, api.ranking, { type } as never, auth)).code, String(type)).toBe(Code.INVALID)
    expect((await call(t.app, api.ranking, { type: 'direct' })).code).toBe(Code.SESSION_INVALID)
  })
})
