// Power and performance (DESIGN.md §3): personal figures per user and team figures summed over the whole downline.
// Every change goes through applyPower, inside the transaction that makes the change, so the figures are always
// those of the positions in force. Units: USDT base units.
import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB, PowerEventsTable } from '../../db/schema.ts'

/**
 * Applies signed changes to the users' personal power and performance and to the team figures of every ancestor of
 * each, in one statement whatever their number. `changes` is a query selecting (user_id bigint, power numeric,
 * performance numeric); a user may appear several times. Rows are written in user id order, so two transactions
 * changing overlapping users lock them in the same order and never deadlock each other.
 */
export async function applyPower(trx: Transaction<DB>, changes: RawBuilder<unknown>): Promise<void> {
  await sql`
    with recursive delta as (
      select user_id, sum(power) as power, sum(performance) as performance from (${changes}) c group by user_id
    ), up(ancestor_id, power, performance) as (
      select u.parent_id, d.power, d.performance from delta d join users u on u.id = d.user_id
      where u.parent_id is not null
      union all
      select u.parent_id, up.power, up.performance from up join users u on u.id = up.ancestor_id
      where u.parent_id is not null
    ), merged as (
      select user_id, sum(pp) as pp, sum(tp) as tp, sum(pf) as pf, sum(tf) as tf from (
        select user_id, power as pp, 0 as tp, performance as pf, 0 as tf from delta
        union all
        select ancestor_id, 0, power, 0, performance from up
      ) x group by user_id
    )
    insert into user_power (user_id, personal_power, team_power, performance, team_performance)
    select user_id, pp, tp, pf, tf from merged order by user_id
    on conflict (user_id) do update set
      personal_power = user_power.personal_power + excluded.personal_power,
      team_power = user_power.team_power + excluded.team_power,
      performance = user_power.performance + excluded.performance,
      team_performance = user_power.team_performance + excluded.team_performance`.execute(trx)
}

/** One user's change as a query for applyPower. */
export const powerChange = (userId: string, power: bigint, performance = 0n): RawBuilder<unknown> =>
  sql`select ${userId}::bigint as user_id, ${power.toString()}::numeric as power, ${performance.toString()}::numeric as performance`

/** Records new power as it happens (today's, direct-new and ranking figures add these up); once per source. */
export async function recordPowerEvent(
  trx: Transaction<DB>,
  event: { userId: string; day: string; source: PowerEventsTable['source']; sourceId: string; power: bigint },
): Promise<void> {
  if (event.power <= 0n) return
  await trx
    .insertInto('power_events')
    .values({
      user_id: event.userId,
      day: event.day,
      source: event.source,
      source_id: event.sourceId,
      power: event.power.toString(),
    })
    .onConflict((oc) => oc.columns(['source', 'source_id']).doNothing())
    .execute()
}

export interface PowerFigures {
  personal_power: bigint
  team_power: bigint
  performance: bigint
  team_performance: bigint
}

/** A user's figures (zero when they never had any). */
export async function powerOf(db: Database, userId: string): Promise<PowerFigures> {
  const row = await db.selectFrom('user_power').selectAll().where('user_id', '=', userId).executeTakeFirst()
  return {
    personal_power: BigInt(row?.personal_power ?? 0),
    team_power: BigInt(row?.team_power ?? 0),
    performance: BigInt(row?.performance ?? 0),
    team_performance: BigInt(row?.team_performance ?? 0),
  }
}
