// The user's history for the charts (docs/product.md#history): read from what is already stored — output_records for
// the output credited per settled day, the positions with their power_events for personal power over time, and
// team_months with the user's user_power row (kept with every stake) for the team's performance by month. Power
// changes when a position adds it (its power event, on the day it was made) and when the settlement expires a stake
// or a deposit (its expired_at); a node's power stays.
import type { api, DataOf } from '@solpledge/contract'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { addDays, utcDay } from '../../lib/day.ts'

export async function myHistory(
  db: Database,
  userId: string,
  days: number,
  today: string = utcDay(),
): Promise<DataOf<typeof api.myHistory>> {
  const from = addDays(today, 1 - days)
  const fromMonth = `${from.slice(0, 7)}-01`
  const [output, changes, team] = await Promise.all([
    db
      .selectFrom('output_records as o')
      .innerJoin('assets as a', 'a.code', 'o.asset')
      .select(['o.day', 'o.asset', 'a.decimals', sql<string>`sum(o.amount)::text`.as('amount')])
      .where('o.user_id', '=', userId)
      // Through the newest settled day, which an operator may have settled ahead of today.
      .where('o.day', '>=', from)
      .groupBy(['o.day', 'o.asset', 'a.decimals', 'a.sort'])
      .orderBy('o.day')
      .orderBy('a.sort')
      .orderBy('o.asset')
      .execute(),
    // Every change of the user's personal power, per day: a user's positions are few, so all of them are read (by
    // user id) and summed from zero, which gives the power on the window's first day too.
    sql<{ day: string; delta: string }>`
      with change(day, delta) as (
        select e.day, e.power from stakes s join power_events e on e.source = 'stake' and e.source_id = s.id
        where s.user_id = ${userId}
        union all
        select (s.expired_at at time zone 'UTC')::date, -s.power from stakes s
        where s.user_id = ${userId} and s.expired_at is not null
        union all
        select e.day, e.power from finance_deposits f join power_events e on e.source = 'finance' and e.source_id = f.id
        where f.user_id = ${userId}
        union all
        select (f.expired_at at time zone 'UTC')::date, -f.power from finance_deposits f
        where f.user_id = ${userId} and f.expired_at is not null
        union all
        select e.day, e.power from user_nodes n join power_events e on e.source = 'node' and e.source_id = n.id
        where n.user_id = ${userId}
      )
      select to_char(day, 'YYYY-MM-DD') as day, sum(delta)::text as delta from change
      where day <= ${today}::date group by day order by day`.execute(db),
    // The team's performance by month, kept with every stake (modules/power updateAncestry): the closed months in
    // team_months, the row's month in user_power (migration 0032-team-month-row); a month in both is their sum.
    sql<{ month: string; performance: string }>`
      select to_char(month, 'YYYY-MM-DD') as month, sum(performance)::text as performance from (
        select month, performance from team_months where user_id = ${userId} and month >= ${fromMonth}::date
        union all
        select team_month, team_month_performance from user_power
        where user_id = ${userId} and team_month >= ${fromMonth}::date and team_month_performance > 0
      ) m
      group by month order by month`
      .execute(db)
      .then((result) => result.rows),
  ])

  // The power at the end of the day before the window, then after each day of the window that changed it.
  let power = 0n
  const inWindow: { day: string; delta: bigint }[] = []
  for (const change of changes.rows)
    if (change.day < from) power += BigInt(change.delta)
    else inWindow.push({ day: change.day, delta: BigInt(change.delta) })
  const points = [{ day: from, power: power.toString() }]
  for (const { day, delta } of inWindow) {
    power += delta
    if (day === from) points[0] = { day, power: power.toString() }
    else points.push({ day, power: power.toString() })
  }
  const last = output.at(-1)?.day
  return {
    from,
    to: last && String(last) > today ? String(last) : today,
    output: output.map((o) => ({ day: String(o.day), coin: o.asset, decimals: o.decimals, amount: o.amount })),
    power: points,
    team,
  }
}
