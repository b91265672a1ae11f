import {
  type Adjustment,
  type AdminCampaign,
  api,
  Code,
  type DataOf,
  IDEMPOTENCY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type UserCampaign,
} from '@solpledge/contract'
import { PLG, USDT } from '@solpledge/test-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { utcDay } from '../src/lib/day.ts'
import { addNewPower } from '../src/modules/power/service.ts'
import { auditCount, signedInAdmin, type TestAdmin } from './admin.ts'
import { call, createSeededApp, dbKind, download, fundedMember, type Member, type SeededApp } from './helpers.ts'

const HOUR = 3_600_000

const texts = [
  { lang: 'en', title: 'Bangkok conference', body: '<p>Reach a tier, <strong>win a place</strong>.</p>' },
  { lang: 'zh', title: '曼谷大会', body: '<p>达到档位</p>' },
]
/**
 * Tier 1: two direct referrals (the root, with one, never qualifies); tier 2 (a junior node): two direct referrals and
 * 150 USDT of small-market fuel.
 */
const tiers = [
  { min_direct: 2, min_fuel: '0', reward: { kind: 'trip', places: 1 } },
  { min_direct: 2, min_fuel: (150n * USDT).toString(), reward: { kind: 'node', level: 'junior' } },
]
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString()

describe(`campaigns (${dbKind})`, () => {
  let t: SeededApp
  let admin: TestAdmin
  let admin2: TestAdmin
  let viewer: TestAdmin
  let leader: Member
  let members: Member[]
  let campaign: AdminCampaign

  const save = (body: Record<string, unknown>, who: TestAdmin = admin) =>
    call(t.app, api.adminCampaignSave, body, who.headers)
  const mine = async (user: Member) => {
    const res = await call(t.app, api.campaignList, {}, user.auth)
    expect(res.code).toBe(Code.OK)
    return (res.data as DataOf<typeof api.campaignList>).list
  }
  const progress = async (user: Member) => (await mine(user)).find((c) => c.id === campaign.id) as UserCampaign
  const qualifiers = async () =>
    (await call(t.app, api.adminCampaignQualifiers, { id: campaign.id }, viewer.headers)).data as DataOf<
      typeof api.adminCampaignQualifiers
    >
  /** Stakes `plg` whole PLG for 30 days (0.5 USDT each at the reference price: power = half of it in USDT). */
  const stake = async (user: Member, plg: bigint) =>
    expect((await call(t.app, api.pledgeStake, { amount: (plg * PLG).toString(), days: 30 }, user.auth)).code).toBe(
      Code.OK,
    )
  /** The `team` events with `position` published to `user` so far (the outbox, in the order written). */
  const positionEvents = async (user: { id: string }) =>
    (
      await t.db
        .selectFrom('live_outbox')
        .select('payload')
        .where('topic', '=', `user:${user.id}`)
        .orderBy('id')
        .execute()
    )
      .map((row) => row.payload as { kind: string; member?: string; position?: boolean })
      .filter((event) => event.kind === 'team' && event.position === true)
  const counts = async () => ({
    campaigns: (await t.db.selectFrom('campaigns').select('id').execute()).length,
    adjustments: (await t.db.selectFrom('adjustments').select('id').execute()).length,
    audit: await auditCount(t.db),
  })

  beforeAll(async () => {
    t = await createSeededApp()
    admin = await signedInAdmin(t.app, t.db, 'admin')
    admin2 = await signedInAdmin(t.app, t.db, 'admin')
    viewer = await signedInAdmin(t.app, t.db, 'viewer')
    leader = await fundedMember(t, t.root.address)
    members = [
      await fundedMember(t, leader.address, { PLG: 10_000n * PLG }),
      await fundedMember(t, leader.address, { PLG: 10_000n * PLG }),
    ]
  })
  afterAll(() => t.close())

  it('refuses a bad campaign with a clear error and nothing stored, and never answers 5xx', async () => {
    const good = { translations: texts, starts_at: at(-HOUR), ends_at: at(HOUR), tiers }
    const before = await counts()
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ ...good, translations: [texts[1]] }, Code.INVALID, 'admin.noticeNeedsEnglish'],
      [{ ...good, ends_at: good.starts_at }, Code.INVALID, 'campaign.dates'],
      [{ ...good, starts_at: at(-2 * HOUR), ends_at: at(-HOUR) }, Code.INVALID, 'campaign.dates'],
      [{ ...good, tiers: [tiers[1], tiers[0]] }, Code.INVALID, 'campaign.tiersNotAscending'],
      [{ ...good, tiers: [tiers[0], tiers[0]] }, Code.INVALID, 'campaign.tiersNotAscending'],
      [
        { ...good, tiers: [{ ...tiers[0], reward: { kind: 'node', level: 'platinum' } }] },
        Code.INVALID,
        'campaign.unknownNodeLevel',
      ],
      [{ ...good, id: '999999' }, Code.NOT_FOUND, 'campaign.notFound'],
      [{ ...good, tiers: [{ ...tiers[0], min_fuel: '-1' }] }, Code.INVALID, 'error.invalidParams'],
      [{ ...good, tiers: [] }, Code.INVALID, 'error.invalidParams'],
      [{ ...good, tiers: [{ ...tiers[0], reward: { kind: 'trip', places: 0 } }] }, Code.INVALID, 'error.invalidParams'],
      [{ ...good, starts_at: 'tomorrow' }, Code.INVALID, 'error.invalidParams'],
    ]
    for (const [body, code, key] of refusals) {
      const res = await save(body)
      expect(res.status, key).toBe(200)
      expect({ code: res.code, key: res.key }, JSON.stringify(body).slice(0, 200)).toEqual({ code, key })
    }
    // A viewer may read, not write; grant needs an admin.
    expect((await save(good, viewer)).code).toBe(Code.SESSION_INVALID)
    expect(await counts()).toEqual(before)
    for (const body of [{ id: 'x' }, { id: '999999' }, {}])
      for (const route of [api.adminCampaignQualifiers, api.adminCampaignGrant]) {
        const res = await call(t.app, route, body, admin.headers)
        expect(res.status).toBe(200)
        expect(res.code).not.toBe(Code.OK)
      }
    expect(await counts()).toEqual(before)
  })

  it('publishes no team position event while no campaign runs', async () => {
    // 200 PLG: 100 USDT of power in the first leg (the fuel figures below stay those of the larger stakes).
    await stake(members[0] as Member, 200n)
    expect(await positionEvents(leader)).toEqual([])
    expect(await positionEvents(t.root)).toEqual([])
  })

  it('creates and edits a campaign before its start only, audited', async () => {
    const upcoming = await save({ translations: texts, starts_at: at(HOUR), ends_at: at(2 * HOUR), tiers })
    expect(upcoming).toMatchObject({ code: Code.OK, data: { status: 'upcoming', decimals: 6 } })
    const id = (upcoming.data as AdminCampaign).id
    const edited = await save({ id, translations: [texts[0]], starts_at: at(HOUR), ends_at: at(3 * HOUR), tiers })
    expect((edited.data as AdminCampaign).translations).toHaveLength(1)
    expect(await auditCount(t.db, 'campaign.save')).toBe(2)
    // Not shown to users before it starts.
    expect(await mine(leader)).toEqual([])

    const running = await save({ translations: texts, starts_at: at(-HOUR), ends_at: at(HOUR), tiers })
    expect(running.data).toMatchObject({ status: 'running', tiers })
    campaign = running.data as AdminCampaign
    const late = await save({ id: campaign.id, translations: texts, starts_at: at(HOUR), ends_at: at(2 * HOUR), tiers })
    expect(late).toMatchObject({ code: Code.FAIL, key: 'campaign.started' })
    expect(await auditCount(t.db, 'campaign.save')).toBe(3)
    const list = (await call(t.app, api.adminCampaigns, {}, viewer.headers)).data as DataOf<typeof api.adminCampaigns>
    expect(list.list.map((c) => c.status)).toEqual(['upcoming', 'running'])
  })

  it("shows each user's live progress with the team module's one fuel figure", async () => {
    const zh = await call(t.app, api.campaignList, {}, { ...leader.auth, lang: 'zh' })
    expect((zh.data as DataOf<typeof api.campaignList>).list[0]).toMatchObject({ title: '曼谷大会', lang: 'zh' })
    expect(await progress(leader)).toMatchObject({
      status: 'running',
      direct_count: 2,
      fuel: '0',
      tier: 1,
      body: texts[0]?.body,
    })
    expect((await qualifiers()).list.map((q) => [q.address, q.tier])).toEqual([[leader.address, 1]])

    // 1000 PLG = 500 USDT of power (600 in all with the first 200 PLG) and 800 PLG = 400 USDT: the largest leg is 600,
    // the fuel the other 400.
    await stake(members[0] as Member, 1000n)
    expect((await progress(leader)).fuel).toBe('0')
    await stake(members[1] as Member, 800n)
    // While the campaign runs each stake reached every ancestor as a `team` event, so the progress page follows.
    const events = [members[0], members[1]].map((m) => ({ kind: 'team', member: m?.id, position: true }))
    expect(await positionEvents(leader)).toEqual(events)
    expect(await positionEvents(t.root)).toEqual(events)
    expect(await positionEvents(members[0] as Member)).toEqual([])
    const now = await progress(leader)
    expect(now).toMatchObject({ direct_count: 2, fuel: (400n * USDT).toString(), tier: 2 })
    const team = (await call(t.app, api.teamIndex, {}, leader.auth)).data as DataOf<typeof api.teamIndex>
    const fuel = (await call(t.app, api.fuel, {}, leader.auth)).data as DataOf<typeof api.fuel>
    expect([team.small_market_fuel, fuel.my_fuel]).toEqual([now.fuel, now.fuel])
    expect((await progress(members[0] as Member)).tier).toBe(0)

    const q = await qualifiers()
    expect(q.list).toEqual([
      {
        id: leader.id,
        address: leader.address,
        direct_count: 2,
        fuel: (400n * USDT).toString(),
        tier: 2,
        reward: { kind: 'node', level: 'junior' },
        adjustment_id: null,
        adjustment_status: null,
      },
    ])
    const file = await download(t.app, api.adminCampaignQualifiersCsv, { id: campaign.id }, viewer.headers)
    expect(file.lines).toEqual([
      ['user_id', 'address', 'direct_referrals', 'small_market_fuel', 'tier', 'reward', 'adjustment_status'],
      [leader.id, leader.address, '2', '400', '2', 'node junior', ''],
    ])
  })

  it("reaches the 32 nearest ancestors of a new position, not a deep chain's whole ancestry", async () => {
    // 40 levels below the first member (its leg is the largest: the leader's fuel stays the other leg's).
    const chain: string[] = []
    let parent = (members[0] as Member).id
    for (let i = 0; i < 40; i++) {
      const row = await t.db
        .insertInto('users')
        .values({ address: `chain-${i}-${Date.now()}`, parent_id: parent, created_at: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow()
      chain.push(row.id)
      parent = row.id
    }
    const before = (await positionEvents(leader)).length
    const deepest = chain.at(-1) as string
    await t.db
      .transaction()
      .execute((trx) => addNewPower(trx, { userId: deepest, day: utcDay(), source: 'node', sourceId: '0', power: 1n }))
    const reached = async (id: string) => (await positionEvents({ id })).length
    // chain[38] … chain[7] are its 32 nearest ancestors; chain[6] and everyone above are not reached.
    expect(await reached(chain[38] as string)).toBe(1)
    expect(await reached(chain[7] as string)).toBe(1)
    expect(await reached(chain[6] as string)).toBe(0)
    expect(await reached((members[0] as Member).id)).toBe(0)
    expect((await positionEvents(leader)).length).toBe(before)
    expect((await progress(leader)).fuel).toBe((400n * USDT).toString())
  })

  it('grants node rewards after the end only, through the four-eyes adjustments, once', async () => {
    const grant = (who: TestAdmin, key?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api${api.adminCampaignGrant.path}`,
        payload: { id: campaign.id },
        headers: { ...who.headers.headers, 'accept-language': 'en', ...(key ? { [IDEMPOTENCY_HEADER]: key } : {}) },
      })
    const early = (await grant(admin)).json()
    expect(early).toMatchObject({ code: Code.FAIL, key: 'campaign.notEnded' })
    expect((await counts()).adjustments).toBe(0)

    await t.db
      .updateTable('campaigns')
      .set({ starts_at: new Date(Date.now() - 2 * HOUR), ends_at: new Date(Date.now() - 1000) })
      .where('id', '=', campaign.id)
      .execute()
    // Ended: the result is fixed at the first read, a stake after it changes nothing of it.
    expect(await progress(leader)).toMatchObject({ status: 'ended', tier: 2, fuel: (400n * USDT).toString() })
    await stake(members[1] as Member, 1000n)
    expect(await progress(leader)).toMatchObject({ status: 'ended', tier: 2, fuel: (400n * USDT).toString() })
    expect(await progress(members[0] as Member)).toMatchObject({ status: 'ended', tier: 0, direct_count: 0 })

    // Twice at once and once more with the first one's key: one adjustment in all, the retry replayed.
    const [first, second] = await Promise.all([grant(admin, 'grant-1'), grant(admin, 'grant-2')])
    const answers = [first.json().data, second.json().data].sort((a, b) => b.proposed - a.proposed)
    expect(answers).toEqual([
      { proposed: 1, applied: 0, existing: 0 },
      { proposed: 0, applied: 0, existing: 1 },
    ])
    const retry = await grant(admin, first.json().data.proposed === 1 ? 'grant-1' : 'grant-2')
    expect(retry.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBe('true')
    expect(retry.json().data).toEqual({ proposed: 1, applied: 0, existing: 0 })
    expect((await grant(admin2)).json().data).toEqual({ proposed: 0, applied: 0, existing: 1 })

    const pending = (await call(t.app, api.adminAdjustments, { status: 'pending' }, viewer.headers)).data as {
      list: Adjustment[]
    }
    expect(pending.list).toEqual([
      expect.objectContaining({
        user_address: leader.address,
        coin: 'USDT',
        amount: (500n * USDT).toString(),
        node_level: 'junior',
        campaign_id: campaign.id,
        requested_by: admin.address,
      }),
    ])
    const adjustment = pending.list[0] as Adjustment
    expect((await qualifiers()).list[0]).toMatchObject({ adjustment_id: adjustment.id, adjustment_status: 'pending' })
    expect((await call(t.app, api.myNodes, {}, leader.auth)).data).toEqual({ list: [] })

    const approve = (who: TestAdmin) => call(t.app, api.adminAdjustApprove, { id: adjustment.id }, who.headers)
    expect(await approve(admin)).toMatchObject({ code: Code.FAIL, key: 'admin.ownAdjustment' })
    const [a, b] = await Promise.all([approve(admin2), approve(admin2)])
    expect([a.code, b.code].sort()).toEqual([Code.FAIL, Code.OK].sort())
    // The node is the user's; the price went in and straight out to node sales: the balance is where it was.
    const nodes = (await call(t.app, api.myNodes, {}, leader.auth)).data as DataOf<typeof api.myNodes>
    expect(nodes.list.map((n) => [n.level, n.price_usdt])).toEqual([['junior', (500n * USDT).toString()]])
    const wallet = (await call(t.app, api.userWallet, {}, leader.auth)).data as DataOf<typeof api.userWallet>
    expect(wallet.list.find((w) => w.coin === 'USDT')?.balance).toBe('0')
    expect((await qualifiers()).list[0]).toMatchObject({ adjustment_status: 'applied' })
    expect((await grant(admin)).json().data).toEqual({ proposed: 0, applied: 0, existing: 1 })
    expect(await auditCount(t.db, 'campaign.grant')).toBe(4)
  })
})

describe(`campaign rewards with a single admin (${dbKind})`, () => {
  let t: SeededApp
  beforeAll(async () => {
    t = await createSeededApp()
  })
  afterAll(() => t.close())

  it('applies each node reward at once, and one the node rules refuse changes nothing', async () => {
    const admin = await signedInAdmin(t.app, t.db, 'admin')
    const leader = await fundedMember(t, t.root.address)
    for (let i = 0; i < 2; i++) await fundedMember(t, leader.address)
    /** An ended campaign whose one tier (two direct referrals) gives a junior node. */
    const ended = async () => {
      const saved = await call(
        t.app,
        api.adminCampaignSave,
        {
          translations: [texts[0]],
          starts_at: at(-HOUR),
          ends_at: at(HOUR),
          tiers: [{ min_direct: 2, min_fuel: '0', reward: { kind: 'node', level: 'junior' } }],
        },
        admin.headers,
      )
      const id = (saved.data as AdminCampaign).id
      await t.db
        .updateTable('campaigns')
        .set({ starts_at: new Date(Date.now() - 2 * HOUR), ends_at: new Date(Date.now() - 1000) })
        .where('id', '=', id)
        .execute()
      return id
    }
    const grant = (id: string) => call(t.app, api.adminCampaignGrant, { id }, admin.headers)
    const nodes = async () =>
      ((await call(t.app, api.myNodes, {}, leader.auth)).data as DataOf<typeof api.myNodes>).list.length

    const first = await grant(await ended())
    expect(first).toMatchObject({ code: Code.OK, data: { proposed: 1, applied: 1, existing: 0 } })
    expect(await nodes()).toBe(1)

    // A second campaign's junior node for the same leader: one per user, so it cannot apply, and nothing is stored.
    const second = await ended()
    const adjustments = await t.db.selectFrom('adjustments').select('id').execute()
    const audits = await auditCount(t.db)
    expect(await grant(second)).toMatchObject({ code: Code.FAIL, key: 'node.alreadyHeld' })
    expect(await t.db.selectFrom('adjustments').select('id').execute()).toEqual(adjustments)
    expect(await auditCount(t.db)).toBe(audits)
    expect(await nodes()).toBe(1)
  })
})
