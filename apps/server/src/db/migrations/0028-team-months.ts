import { type Kysely, sql } from 'kysely'

/**
 * Each user's team performance by month (docs/product.md#history): the USDT value of the stakes the whole downline
 * made in each UTC month. The history's team chart walked the downline down users.parent_id on every request, a cost
 * that grew with the team; now a stake adds its value to the month's row of every ancestor, in the transaction that
 * makes it (modules/power updateAncestry's teamMonth, up the ancestor segments as the other team figures), and the chart reads one row
 * per month. The stakes made so far are added up here once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('team_months')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    // The month's first day (UTC).
    .addColumn('month', 'date', (c) => c.notNull())
    // USDT base units.
    .addColumn('performance', sql`numeric(38, 0)`, (c) => c.notNull().check(sql`performance >= 0`))
    .addPrimaryKeyConstraint('team_months_pk', ['user_id', 'month'])
    .execute()
  // Every stake updates a row per ancestor: half-empty pages keep those updates on their page (HOT), as user_power's.
  await sql`alter table team_months set (fillfactor = 50)`.execute(db)
  await backfillTeamMonths.execute(db)
}

/**
 * The figures of the stakes made so far: each staker's ancestors, by their parents (once, at the migration), and the
 * stakes' USDT value per ancestor and month of creation (UTC).
 */
export const backfillTeamMonths = sql`
  insert into team_months (user_id, month, performance)
  with recursive chain(member_id, ancestor_id) as (
    select u.id, u.parent_id from users u
    where u.parent_id is not null and exists (select 1 from stakes s where s.user_id = u.id)
    union all
    select c.member_id, u.parent_id from chain c join users u on u.id = c.ancestor_id where u.parent_id is not null
  )
  select c.ancestor_id, date_trunc('month', s.created_at at time zone 'UTC')::date, sum(s.usdt_value)
  from chain c join stakes s on s.user_id = c.member_id
  group by 1, 2`
