// Campaigns (docs/admin.md#campaigns, docs/product.md#campaigns): a time-boxed event whose qualification tiers ask for
// direct referrals and small-market fuel (the team module's one figure, docs/economics.md#small-market-fuel). While a
// campaign runs, every figure is read live; the first read after its end fixes the result (campaign_results), which
// the user's page, the console's qualifiers and the node rewards all read from then on. Node rewards are adjustments
// (modules/admin adjustments.ts): proposed by Grant, applied by a second admin, at most one per user and campaign.
import {
  type AdminCampaign,
  type api,
  type CampaignQualifier,
  type CampaignReward,
  type CampaignTier,
  Code,
  type DataOf,
  LANGUAGES,
  type Language,
  type UserCampaign,
} from '@solpledge/contract'
import { type RawBuilder, type Selectable, sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { CampaignsTable } from '../../db/schema.ts'
import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import type { Commit } from '../../lib/commit.ts'
import { sanitizeRichText } from '../../lib/rich-text.ts'
import { type AdminCaller, audit, checkTexts, proposeAdjustment } from '../admin/index.ts'
import { getBusinessConfig } from '../config/index.ts'
import { NODE_COIN } from '../node/index.ts'
import { smallMarketFuel, smallMarketFuelSql, usdtDecimals } from '../team/index.ts'

/** How long an ended campaign stays on the users' list with its result. */
const RESULT_DAYS = 30

type Row = Selectable<CampaignsTable>
type Translation = AdminCampaign['translations'][number]
type SaveInput = {
  id?: string | undefined
  translations: Translation[]
  starts_at: string
  ends_at: string
  tiers: CampaignTier[]
}

const tiersOf = (row: Row) => row.tiers as CampaignTier[]

function statusOf(row: Row, now: Date): AdminCampaign['status'] {
  if (now < row.starts_at) return 'upcoming'
  return now < row.ends_at ? 'running' : 'ended'
}

const byLang = (a: { lang: string }, b: { lang: string }) =>
  LANGUAGES.indexOf(a.lang as Language) - LANGUAGES.indexOf(b.lang as Language)

async function translationsOf(db: Database, ids: string[]) {
  if (ids.length === 0) return []
  return db.selectFrom('campaign_translations').selectAll().where('campaign_id', 'in', ids).execute()
}

async function present(db: Database, rows: Row[]): Promise<AdminCampaign[]> {
  const [texts, decimals] = await Promise.all([
    translationsOf(
      db,
      rows.map((row) => row.id),
    ),
    usdtDecimals(db),
  ])
  const now = new Date()
  return rows.map((row) => ({
    id: row.id,
    translations: texts
      .filter((t) => t.campaign_id === row.id)
      .sort(byLang)
      .map((t) => ({ lang: t.lang as Translation['lang'], title: t.title, body: t.body })),
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    status: statusOf(row, now),
    tiers: tiersOf(row),
    decimals,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    finalized_at: row.finalized_at?.toISOString() ?? null,
  }))
}

async function requireCampaign(db: Database, id: string): Promise<Row> {
  const row = await db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'campaign.notFound')
  return row
}

export async function adminCampaigns(db: Database, query: { page: number; limit: number }) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('campaigns')
      .selectAll()
      .orderBy('starts_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    db
      .selectFrom('campaigns')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { list: await present(db, rows), total: Number(count.n), page: query.page, limit: query.limit }
}

/**
 * Why tiers cannot be used, or null: each tier asks at least what the one before asks and more of one of the two (so
 * reaching a tier means reaching every one before it), and a node reward names a level the configuration offers.
 */
async function checkTiers(db: Database, tiers: CampaignTier[]) {
  for (const [i, tier] of tiers.entries()) {
    const before = tiers[i - 1]
    if (
      before &&
      (tier.min_direct < before.min_direct ||
        BigInt(tier.min_fuel) < BigInt(before.min_fuel) ||
        (tier.min_direct === before.min_direct && tier.min_fuel === before.min_fuel))
    )
      throw invalid('campaign.tiersNotAscending', { tier: i + 1 })
  }
  const levels = new Set((await getBusinessConfig(db)).nodeLevels.map((level) => level.code))
  for (const [i, tier] of tiers.entries())
    if (tier.reward.kind === 'node' && !levels.has(tier.reward.level))
      throw invalid('campaign.unknownNodeLevel', { tier: i + 1, level: tier.reward.level })
}

/** Creates a campaign, or replaces one that has not started; audited with its before and after. */
export async function saveCampaign(db: Database, caller: AdminCaller, input: SaveInput): Promise<AdminCampaign> {
  checkTexts(input.translations)
  const startsAt = new Date(input.starts_at)
  const endsAt = new Date(input.ends_at)
  if (!(endsAt > startsAt) || endsAt <= new Date()) throw invalid('campaign.dates')
  await checkTiers(db, input.tiers)
  const id = await db.transaction().execute(async (trx) => {
    const before = input.id
      ? await trx.selectFrom('campaigns').selectAll().where('id', '=', input.id).forUpdate().executeTakeFirst()
      : null
    if (input.id && !before) throw new AppError(Code.NOT_FOUND, 'campaign.notFound')
    if (before && before.starts_at <= new Date()) throw refuse('campaign.started')
    const fields = { starts_at: startsAt, ends_at: endsAt, tiers: JSON.stringify(input.tiers) }
    const id = before
      ? before.id
      : (
          await trx
            .insertInto('campaigns')
            .values({ ...fields, created_by: caller.address })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
    if (before) {
      await trx
        .updateTable('campaigns')
        .set({ ...fields, updated_at: new Date() })
        .where('id', '=', id)
        .execute()
      await trx.deleteFrom('campaign_translations').where('campaign_id', '=', id).execute()
    }
    await trx
      .insertInto('campaign_translations')
      .values(
        input.translations.map((t) => ({
          campaign_id: id,
          lang: t.lang,
          title: t.title.trim(),
          body: sanitizeRichText(t.body),
        })),
      )
      .execute()
    const beforeTexts = before ? await translationsOf(trx, [before.id]) : []
    await audit(trx, caller, 'campaign.save', `campaign:${id}`, {
      before: before && { ...before, translations: beforeTexts },
      after: input,
    })
    return id
  })
  return (await present(db, [await requireCampaign(db, id)]))[0] as AdminCampaign
}

/**
 * Every user's figures and the tier they reach now (an SQL subquery: user_id, direct_count, fuel, tier), read from
 * the team module's figures; only users who reach the first tier when `qualifiedOnly`, else everyone with a figure.
 */
function liveFigures(tiers: CampaignTier[], qualifiedOnly: boolean): RawBuilder<unknown> {
  const first = tiers[0] as CampaignTier
  const reached = tiers
    .map((tier, i) => ({ tier, n: i + 1 }))
    .reverse()
    .map(
      ({ tier, n }) =>
        sql`when f.direct_count >= ${tier.min_direct} and f.fuel >= ${tier.min_fuel}::numeric then ${n}::integer`,
    )
  const filter = qualifiedOnly
    ? sql`p.direct_count >= ${first.min_direct}`
    : sql`(p.direct_count > 0 or p.team_power > 0)`
  return sql`(
    select f.user_id, f.direct_count, f.fuel, case ${sql.join(reached, sql` `)} else 0 end as tier
    from (
      select p.user_id, p.direct_count::integer as direct_count, ${smallMarketFuelSql} as fuel
      from user_power p where ${filter}
    ) f
  )`
}

/**
 * Fixes an ended campaign's result once (campaign_results: every user with a figure, with the tier reached or 0), in
 * one transaction that holds the campaign's row: concurrent first readers wait, and the second finds it done.
 */
async function finalize(db: Database, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('campaigns').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    if (!row || row.finalized_at !== null || row.ends_at > new Date()) return
    await sql`
      insert into campaign_results (campaign_id, user_id, direct_count, fuel, tier)
      select ${id}::bigint, q.user_id, q.direct_count, q.fuel, q.tier
      from ${liveFigures(tiersOf(row), false)} q
      where q.tier > 0 or q.direct_count > 0 or q.fuel > 0`.execute(trx)
    await trx.updateTable('campaigns').set({ finalized_at: new Date() }).where('id', '=', id).execute()
  })
}

/** The campaign's row, its result fixed first when it has ended. */
async function campaignNow(db: Database, id: string): Promise<Row> {
  const row = await requireCampaign(db, id)
  if (row.finalized_at !== null || row.ends_at > new Date()) return row
  await finalize(db, id)
  return requireCampaign(db, id)
}

/** The qualifiers' source: the fixed result once ended, else the live figures of those who reach the first tier. */
const qualifierSource = (row: Row) =>
  row.finalized_at !== null
    ? sql`(select user_id, direct_count, fuel, tier from campaign_results where campaign_id = ${row.id} and tier > 0)`
    : liveFigures(tiersOf(row), true)

interface QualifierRow {
  user_id: string
  address: string
  direct_count: number
  fuel: string
  tier: number
  adjustment_id: string | null
  adjustment_status: CampaignQualifier['adjustment_status']
}

export async function campaignQualifiers(
  db: Database,
  query: { id: string; page: number; limit: number },
): Promise<{ list: CampaignQualifier[]; total: number; page: number; limit: number }> {
  const row = await campaignNow(db, query.id)
  const tiers = tiersOf(row)
  const source = qualifierSource(row)
  const [rows, count] = await Promise.all([
    sql<QualifierRow>`
      select q.user_id, u.address, q.direct_count, q.fuel::text as fuel, q.tier,
        a.id as adjustment_id, a.status as adjustment_status
      from ${source} q
      join users u on u.id = q.user_id
      left join adjustments a on a.campaign_id = ${row.id} and a.user_id = q.user_id
      where q.tier > 0
      order by q.tier desc, q.fuel desc, q.user_id
      limit ${query.limit} offset ${(query.page - 1) * query.limit}`.execute(db),
    sql<{ n: string }>`select count(*) as n from ${source} q where q.tier > 0`.execute(db),
  ])
  return {
    list: rows.rows.map((r) => ({
      id: String(r.user_id),
      address: r.address,
      direct_count: Number(r.direct_count),
      fuel: BigInt(r.fuel).toString(),
      tier: Number(r.tier),
      reward: (tiers[Number(r.tier) - 1] as CampaignTier).reward,
      adjustment_id: r.adjustment_id === null ? null : String(r.adjustment_id),
      adjustment_status: r.adjustment_status,
    })),
    total: Number(count.rows[0]?.n ?? 0),
    page: query.page,
    limit: query.limit,
  }
}

/** A reward as one line of the qualifiers' file. */
export const rewardText = (reward: CampaignReward) =>
  reward.kind === 'node' ? `node ${reward.level}` : reward.kind === 'trip' ? `trip ${reward.places}` : reward.text

/**
 * Proposes the node rewards of an ended campaign: one adjustment per qualifier of a node tier without one yet (the
 * level's price in USDT now, which buys the node when a second admin applies it). The campaign's row is held, so
 * concurrent calls propose nothing twice; the unique index on (campaign_id, user_id) backs that.
 */
export async function grantRewards(
  db: Database,
  commit: Commit<DataOf<typeof api.adminCampaignGrant>>,
  caller: AdminCaller,
  id: string,
): Promise<DataOf<typeof api.adminCampaignGrant>> {
  const row = await campaignNow(db, id)
  if (row.finalized_at === null) throw refuse('campaign.notEnded')
  const tiers = tiersOf(row)
  const levels = (await getBusinessConfig(db)).nodeLevels
  return commit(async (trx) => {
    await trx.selectFrom('campaigns').select('id').where('id', '=', id).forUpdate().executeTakeFirstOrThrow()
    const qualifiers = await trx
      .selectFrom('campaign_results as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .leftJoin('adjustments as a', (join) => join.onRef('a.user_id', '=', 'r.user_id').on('a.campaign_id', '=', id))
      .select(['r.user_id', 'u.address', 'r.tier', 'a.id as adjustment_id'])
      .where('r.campaign_id', '=', id)
      .where('r.tier', '>', 0)
      .orderBy('r.user_id')
      .execute()
    let proposed = 0
    let applied = 0
    let existing = 0
    for (const q of qualifiers) {
      const reward = (tiers[q.tier - 1] as CampaignTier).reward
      if (reward.kind !== 'node') continue
      if (q.adjustment_id !== null) {
        existing++
        continue
      }
      const level = levels.find((l) => l.code === reward.level)
      if (!level) throw refuse('campaign.nodeLevelGone', { level: reward.level })
      const result = await proposeAdjustment(trx, caller, {
        userId: q.user_id,
        userAddress: q.address,
        asset: NODE_COIN,
        amount: BigInt(level.priceUsdt),
        reason: `Campaign ${id}, tier ${q.tier}: node ${level.code}`,
        reward: { nodeLevel: level.code, campaignId: id },
      })
      proposed++
      if (result.status === 'applied') applied++
    }
    await audit(trx, caller, 'campaign.grant', `campaign:${id}`, { proposed, applied, existing })
    return { proposed, applied, existing }
  })
}

/** A campaign in the user's language: the requested translation, else en, else the first there is. */
function pick<T extends { lang: string }>(texts: T[], lang: Language): T | undefined {
  return texts.find((t) => t.lang === lang) ?? texts.find((t) => t.lang === 'en') ?? texts[0]
}

/** The campaigns running now and those ended in the last RESULT_DAYS days, with the user's figures and tier. */
export async function userCampaigns(
  db: Database,
  userId: string,
  lang: Language,
): Promise<DataOf<typeof api.campaignList>> {
  const now = new Date()
  const since = new Date(now.getTime() - RESULT_DAYS * 86_400_000)
  const rows = await db
    .selectFrom('campaigns')
    .selectAll()
    .where('starts_at', '<=', now)
    .where('ends_at', '>', since)
    .orderBy('ends_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  if (rows.length === 0) return { list: [] }
  const ended = rows.filter((row) => row.ends_at <= now)
  for (const row of ended) if (row.finalized_at === null) await finalize(db, row.id)
  const [texts, live, results, decimals] = await Promise.all([
    translationsOf(
      db,
      rows.map((row) => row.id),
    ),
    smallMarketFuel(db, userId),
    ended.length === 0
      ? []
      : db
          .selectFrom('campaign_results')
          .selectAll()
          .where('user_id', '=', userId)
          .where(
            'campaign_id',
            'in',
            ended.map((row) => row.id),
          )
          .execute(),
    usdtDecimals(db),
  ])
  const list = rows.map((row): UserCampaign => {
    const text = pick(
      texts.filter((t) => t.campaign_id === row.id),
      lang,
    )
    const tiers = tiersOf(row)
    const isEnded = row.ends_at <= now
    const result = results.find((r) => r.campaign_id === row.id)
    const direct = isEnded ? (result?.direct_count ?? 0) : live.directCount
    const fuel = isEnded ? BigInt(result?.fuel ?? 0) : live.fuel
    return {
      id: row.id,
      title: text?.title ?? '',
      body: text?.body ?? '',
      lang: text?.lang ?? 'en',
      starts_at: row.starts_at.toISOString(),
      ends_at: row.ends_at.toISOString(),
      status: isEnded ? 'ended' : 'running',
      decimals,
      tiers,
      direct_count: direct,
      fuel: fuel.toString(),
      tier: isEnded ? (result?.tier ?? 0) : tierReached(tiers, direct, fuel),
    }
  })
  // Running campaigns first (the one ending soonest first), then the ended ones, the latest first.
  list.sort((a, b) =>
    a.status !== b.status
      ? a.status === 'running'
        ? -1
        : 1
      : a.status === 'running'
        ? a.ends_at.localeCompare(b.ends_at)
        : b.ends_at.localeCompare(a.ends_at),
  )
  return { list }
}

/** The highest tier (1-based) whose minimums the figures meet, or 0: the same rule as liveFigures' SQL. */
function tierReached(tiers: CampaignTier[], direct: number, fuel: bigint): number {
  for (let i = tiers.length - 1; i >= 0; i--) {
    const tier = tiers[i] as CampaignTier
    if (direct >= tier.min_direct && fuel >= BigInt(tier.min_fuel)) return i + 1
  }
  return 0
}
