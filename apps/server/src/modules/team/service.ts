// The team (docs/design.md#team-and-ranking, docs/architecture.md "Referral tree"): a user's figures are maintained
// ancestor aggregates in user_power, changed in the same transaction as whatever changes them (a bind here, a position
// in modules/power), so reading them never walks the downline: one primary-key read, plus the direct members' rows (by
// the index on users.parent_id) for push performance and the largest leg.
import type { api, DataOf, TeamMember } from '@solpledge/contract'
import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'
import { refuse } from '../../lib/app-error.ts'
import { updateAncestry } from '../power/index.ts'

/**
 * Counts a newly bound user in its ancestors' team figures, inside the transaction that inserted it (its own row was
 * added by the insert, migration 0010): +1 team member for every ancestor, +1 direct member for the parent, in one
 * UPDATE in user id order (modules/power updateAncestry), so binds and position changes never deadlock each other.
 */
export async function bindMember(trx: Transaction<DB>, userId: string): Promise<void> {
  await updateAncestry(
    trx,
    userId,
    false,
    sql`
      team_count = team_count + 1,
      direct_count = direct_count + case when user_id = (select parent_id from users where id = ${userId}) then 1 else 0 end`,
  )
}

// An asset's decimals never change once it exists: read once per database.
const decimalsCache = new WeakMap<Database, number>()

/** USDT's decimals (power and performance are USDT base units); 6 when the asset is not set up (yet). */
export async function usdtDecimals(db: Database): Promise<number> {
  const cached = decimalsCache.get(db)
  if (cached !== undefined) return cached
  const row = await db.selectFrom('assets').select('decimals').where('code', '=', 'USDT').executeTakeFirst()
  if (row) decimalsCache.set(db, row.decimals)
  return row?.decimals ?? 6
}

const big = (value: string | null | undefined) => BigInt(value ?? 0)

/**
 * A direct member's leg, of the user_power row `c` (docs/economics.md#small-market-fuel): their personal power plus
 * their team power, i.e. all the power of their branch.
 */
const leg = sql<string>`c.personal_power + c.team_power`

/** The largest leg below the user `parent` (an SQL expression): 0 without direct members. */
const largestLeg = (parent: RawBuilder<unknown> | string) =>
  sql<string>`(select coalesce(max(${leg}), 0) from users d join user_power c on c.user_id = d.id where d.parent_id = ${parent})`

/**
 * Small-market fuel of the user_power row `p` (an SQL expression, USDT base units of power): the team's power without
 * its largest leg. The one definition of the figure: the team page, the fuel bar and campaigns all read it from here.
 */
export const smallMarketFuelSql = sql<string>`(p.team_power - ${largestLeg(sql.ref('p.user_id'))})`

/** The user's small-market fuel with what it is made of: team power, the largest leg and their difference. */
export async function smallMarketFuel(
  db: Database,
  userId: string,
): Promise<{ teamPower: bigint; largestLeg: bigint; fuel: bigint; directCount: number }> {
  const row = await sql<{ team_power: string | null; leg: string; direct_count: string | null }>`
    select p.team_power, p.direct_count, ${largestLeg(userId)} as leg
    from (select ${userId}::bigint as id) me left join user_power p on p.user_id = me.id`.execute(db)
  const figures = row.rows[0]
  const teamPower = big(figures?.team_power)
  const legPower = big(figures?.leg)
  return {
    teamPower,
    largestLeg: legPower,
    fuel: teamPower - legPower,
    directCount: Number(figures?.direct_count ?? 0),
  }
}

interface FiguresRow {
  team_count: string | null
  direct_count: string | null
  personal_power: string | null
  team_power: string | null
  performance: string | null
  team_performance: string | null
  push: string
  leg: string
}

/** `/user/team/index`: the user's row and one aggregate over the direct members' rows. */
export async function teamIndex(
  db: Database,
  user: { id: string; address: string },
): Promise<DataOf<typeof api.teamIndex>> {
  const [result, decimals] = await Promise.all([
    sql<FiguresRow>`
      select p.team_count, p.direct_count, p.personal_power, p.team_power, p.performance, p.team_performance,
        d.push, d.leg
      from (select ${user.id}::bigint as id) me
      left join user_power p on p.user_id = me.id
      cross join lateral (
        select coalesce(sum(c.performance), 0) as push, coalesce(max(${leg}), 0) as leg
        from users u join user_power c on c.user_id = u.id
        where u.parent_id = me.id
      ) d`.execute(db),
    usdtDecimals(db),
  ])
  const row = result.rows[0] as FiguresRow
  const teamPower = big(row.team_power)
  const largest = big(row.leg)
  return {
    decimals,
    team_count: Number(row.team_count ?? 0),
    direct_count: Number(row.direct_count ?? 0),
    team_performance: big(row.team_performance).toString(),
    personal_performance: big(row.performance).toString(),
    push_performance: big(row.push).toString(),
    team_power: teamPower.toString(),
    personal_power: big(row.personal_power).toString(),
    largest_leg: largest.toString(),
    // The same difference as smallMarketFuel, from this one read of the direct members (push performance needs it).
    small_market_fuel: (teamPower - largest).toString(),
    invite_code: user.address,
  }
}

const memberQuery = (db: Database) =>
  db
    .selectFrom('users as u')
    .leftJoin('user_power as p', 'p.user_id', 'u.id')
    .select([
      'u.id',
      'u.address',
      'u.created_at',
      'p.performance',
      'p.team_performance',
      'p.personal_power',
      'p.team_power',
      'p.team_count',
      'p.direct_count',
    ])

type MemberRow = Awaited<ReturnType<ReturnType<typeof memberQuery>['executeTakeFirstOrThrow']>>

const presentMember = (row: MemberRow): TeamMember => ({
  id: row.id,
  address: row.address,
  joined_at: row.created_at.toISOString(),
  performance: big(row.performance).toString(),
  team_performance: big(row.team_performance).toString(),
  personal_power: big(row.personal_power).toString(),
  team_power: big(row.team_power).toString(),
  team_count: Number(row.team_count ?? 0),
  direct_count: Number(row.direct_count ?? 0),
})

/** `/user/team/lists`: one page of the direct members, newest first (the count is the maintained direct_count). */
export async function teamList(
  db: Database,
  userId: string,
  query: { page: number; limit: number },
): Promise<DataOf<typeof api.teamList>> {
  const [rows, own, decimals] = await Promise.all([
    memberQuery(db)
      .where('u.parent_id', '=', userId)
      .orderBy('u.id', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    db.selectFrom('user_power').select('direct_count').where('user_id', '=', userId).executeTakeFirst(),
    usdtDecimals(db),
  ])
  return {
    decimals,
    list: rows.map(presentMember),
    total: Number(own?.direct_count ?? 0),
    page: query.page,
    limit: query.limit,
  }
}

/** `/user/team/detail`: one direct member; any other address (another's member, unknown) is refused the same way. */
export async function teamDetail(
  db: Database,
  userId: string,
  address: string,
): Promise<DataOf<typeof api.teamDetail>> {
  const [row, decimals] = await Promise.all([
    memberQuery(db).where('u.address', '=', address).where('u.parent_id', '=', userId).executeTakeFirst(),
    usdtDecimals(db),
  ])
  if (!row) throw refuse('team.notDirectMember')
  return { decimals, member: presentMember(row) }
}
