// Expiry takes power away: the users' personal figures and the team figures of all their ancestors go down.
//
// Why not applyPower (modules/power) with negative deltas: it writes with `insert … on conflict do update`, and
// PostgreSQL checks CHECK constraints on the proposed row before it looks for the conflict, so a negative delta fails
// `user_power_nonnegative` even when the row exists and the result would be positive. Everyone whose power expires
// has a row (the position added it), so an update is all that is needed here. The ancestors are found by their
// segments (modules/power ancestryOf), as applyPower finds them.
import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { ancestryOf } from '../power/service.ts'

/**
 * Subtracts power and performance: `removed` selects (user_id bigint, power numeric, performance numeric), the
 * amounts to take away (positive). Rows are locked in user id order first, the order applyPower writes in, so this
 * never deadlocks with concurrent position changes.
 */
export async function removePower(trx: Transaction<DB>, removed: RawBuilder<unknown>): Promise<void> {
  const merged = sql`
    with recursive delta as (
      select user_id, sum(power) as power, sum(performance) as performance from (${removed}) c group by user_id
    ), ${ancestryOf(sql`select user_id from delta`)}
    select user_id, sum(pp) as pp, sum(tp) as tp, sum(pf) as pf, sum(tf) as tf from (
      select user_id, power as pp, 0 as tp, performance as pf, 0 as tf from delta
      union all
      select a.ancestor_id, 0, d.power, 0, d.performance from ancestry a join delta d on d.user_id = a.user_id
    ) x group by user_id`
  await sql`
    select user_id from user_power where user_id in (select user_id from (${merged}) m) order by user_id for update`.execute(
    trx,
  )
  await sql`
    update user_power p set
      personal_power = p.personal_power - m.pp,
      team_power = p.team_power - m.tp,
      performance = p.performance - m.pf,
      team_performance = p.team_performance - m.tf
    from (${merged}) m
    where p.user_id = m.user_id`.execute(trx)
}
