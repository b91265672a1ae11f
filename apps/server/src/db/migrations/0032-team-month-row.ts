import { type Kysely, sql } from 'kysely'

/**
 * The team's performance of the current month kept in each user's user_power row (docs/architecture.md, "Referral
 * tree"), so that a stake updates each ancestor's row once: the power and the month's figure in the same row, where it
 * updated user_power and then team_months (migration 0028-team-months), a second index probe and row update per
 * ancestor — 10,001 of each at depth 10,000, about 40 % of the stake (docs/benchmarks.md, bench/team).
 *
 * - `team_month` and `team_month_performance`: the month (its first day, UTC) and the USDT value the downline staked in
 *   it since the row's month last moved on. A stake of another month closes the figure: it goes to team_months (added
 *   to the month's row there, which may hold part of it already) and the row starts again with the stake's month.
 * - `closed_month` and `closed_month_performance`: what the row's last update closed (null when it closed nothing), so
 *   that the UPDATE's RETURNING hands it to team_months in the same statement (modules/power updateAncestry). They are
 *   read only there; a later update replaces them.
 *
 * A month's team performance is then its team_months row plus the user_power figure when `team_month` is that month
 * (modules/pledge/history.ts adds them up). Existing rows start without a month: team_months keeps every figure so far.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user_power')
    .addColumn('team_month', 'date')
    .addColumn('team_month_performance', sql`numeric(38, 0)`, (c) =>
      c.notNull().defaultTo(0).check(sql`team_month_performance >= 0`),
    )
    .addColumn('closed_month', 'date')
    .addColumn('closed_month_performance', sql`numeric(38, 0)`)
    .execute()
}

/** Back to team_months alone: the rows' months are added to it first. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into team_months (user_id, month, performance)
    select user_id, team_month, team_month_performance from user_power
    where team_month is not null and team_month_performance > 0
    order by user_id
    on conflict (user_id, month) do update set performance = team_months.performance + excluded.performance`.execute(db)
  await db.schema
    .alterTable('user_power')
    .dropColumn('team_month')
    .dropColumn('team_month_performance')
    .dropColumn('closed_month')
    .dropColumn('closed_month_performance')
    .execute()
}
