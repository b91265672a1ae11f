// Power and performance (docs/design.md#power-and-performance): personal figures per user and team figures summed over
// the whole downline. Every change goes through applyPower, inside the transaction that makes the change, so the
// figures are always those of the positions in force. Units: USDT base units.
import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import { planWithout, type Restore } from '../../db/planner.ts'
import type { DB, PowerEventsTable } from '../../db/schema.ts'
import { COMMIT_XID } from '../../db/transient.ts'
import { lastWrite } from '../../lib/commit.ts'

/**
 * CTE definitions for a `with recursive` clause: `ancestry(user_id, ancestor_id)`, one row per ancestor of each user
 * that `start` selects (a `user_id bigint` column). It walks the ancestor segments (users.ancestors, migration
 * 0009-team): one row read per 32 levels, so the ancestry of a user 10,000 levels deep costs 313 index reads. Each
 * step past the first reads the anchors by primary key, one lookup per row (a scalar subquery): a join there let the
 * planner, estimating the recursion's rows, hash the whole users table once per step — a full scan per settlement
 * batch at a million users.
 */
export const ancestryOf = (start: RawBuilder<unknown>) => sql`
  segment(anc, user_id) as (
    select u.ancestors, s.user_id from (${start}) s join users u on u.id = s.user_id where cardinality(u.ancestors) > 0
    union all
    select (select a.ancestors from users a where a.id = segment.anc[cardinality(segment.anc)]), segment.user_id
    from segment where cardinality(segment.anc) > 0
  ),
  ancestry(user_id, ancestor_id) as (select segment.user_id, x.id from segment, unnest(segment.anc) as x(id))`

/** One user's change, for applyPower: a query, plus the figures themselves for the single-user fast path. */
export type PowerChanges = RawBuilder<unknown> & {
  readonly single?: {
    userId: string
    power: bigint
    performance: bigint
    newOn?: string | undefined
    teamMonth?: TeamMonthChange | undefined
  }
}

/**
 * A stake's USDT value for the team performance of its month (first day, UTC) of every ancestor (migration
 * 0028-team-months; the history's team chart reads it).
 */
export interface TeamMonthChange {
  month: string
  amount: bigint
}

/** The plan kinds updateAncestry runs without (planWithout): its rows are visited by the primary key, in order. */
const ANCESTRY_PLAN = ['seqscan', 'bitmapscan']

/**
 * Adds to the user_power rows of one user (when `withSelf`) and of all its ancestors, in one UPDATE, with
 * `assignments` (a SET list; `user_id` is the row's). Rows are visited in user id order — an index scan of the primary
 * key over the sorted ids, with sequential and bitmap scans off for this statement — the order applyPower's
 * set-based path locks rows in, so concurrent changes never deadlock. Every user has a row (migration 0010): a missing one
 * is an error, never a silent loss. With `closesMonths` (the assignments include teamMonthAssignments), the months the
 * rows closed go to team_months in the same statement (closedMonthWrites). The statement also puts the planner's
 * settings back and returns the transaction's id for its COMMIT (db/transient.ts COMMIT_XID): the ancestors' rows, the
 * root's among them, are locked from it to the COMMIT with no round trip between when it is the transaction's last.
 * `planned`: the caller turned the planner's settings off already (planWithout with ANCESTRY_PLAN: addNewPower).
 */
export async function updateAncestry(
  trx: Transaction<DB>,
  userId: string,
  withSelf: boolean,
  assignments: RawBuilder<unknown>,
  closesMonths = false,
  planned?: Restore,
): Promise<void> {
  const restore = planned ?? (await planWithout(trx, ANCESTRY_PLAN))
  const { rows } = await sql<{ changed: string; expected: string | null }>`
    with recursive ${ancestryOf(sql`select ${userId}::bigint as user_id`)},
    changed as (
      update user_power set ${assignments}
      where user_id = any(array(
        select ancestor_id from ancestry ${withSelf ? sql`union all select ${userId}::bigint` : sql``}
      ))
      returning ${closesMonths ? sql`user_id, closed_month, closed_month_performance` : sql`1`}
    )${closesMonths ? sql`, ${closedMonthWrites}` : sql``}
    select (select count(*) from changed) as changed,
      (select (depth + ${withSelf ? 1 : 0})::text from users where id = ${userId}) as expected,
      ${restore.inline} as restored, txid_current()::text as ${sql.ref(COMMIT_XID)}`.execute(trx)
  if (String(rows[0]?.changed) !== String(rows[0]?.expected))
    throw new Error(`user_power rows missing on the path of user ${userId}: ${JSON.stringify(rows[0])}`)
}

/**
 * SET items that add a stake's value to the team performance of its month in the rows of the ancestors (`ancestor`: an
 * SQL condition true for them, false for the staker's own row), in the same row as their power (migration
 * 0032-team-month-row): the row's figure grows when it belongs to the stake's month; otherwise it is closed — handed
 * to team_months through closed_month (closedMonthWrites) — and the row starts the stake's month. Every row the
 * statement updates sets closed_month again (null when it closed nothing), so its RETURNING lists exactly the
 * figures this statement closed.
 */
const teamMonthAssignments = ({ month, amount }: TeamMonthChange, ancestor: RawBuilder<unknown>) => {
  const same = sql`team_month = ${month}::date`
  const closes = sql`(${ancestor}) and team_month is not null and not (${same})`
  return sql`,
        team_month_performance = case when ${ancestor}
          then case when ${same} then team_month_performance else 0 end + ${amount.toString()}::numeric
          else team_month_performance end,
        team_month = case when ${ancestor} then ${month}::date else team_month end,
        closed_month = case when ${closes} then team_month end,
        closed_month_performance = case when ${closes} then team_month_performance end`
}

/**
 * A CTE after `changed` (updateAncestry's UPDATE, returning user_id and the closed month) that adds the figures the
 * rows closed to team_months (migration 0028-team-months): at most one month per ancestor, and only on a stake that
 * starts a new month for it. Its sort reads all of `changed` before the first team_months row is written, so locks are
 * taken table by table in the order applyPower takes them. The month's row may exist (the figures of the stakes before
 * migration 0032, or a stake of an earlier month that came after a later one): the conflict adds to it.
 */
const closedMonthWrites = sql`
    months as (
      insert into team_months (user_id, month, performance)
      select user_id, closed_month, closed_month_performance from changed
      where closed_month is not null and closed_month_performance > 0
      order by user_id
      on conflict (user_id, month) do update set performance = team_months.performance + excluded.performance
      returning 1
    )`

/**
 * Applies signed changes to the users' personal power and performance and to the team figures of every ancestor of
 * each. `changes` is a query selecting (user_id bigint, power numeric, performance numeric), signed (expiry takes
 * power away with negative ones); a user may appear several times. Rows are locked in user id order, so two
 * transactions changing overlapping users lock them in the same order and never deadlock each other.
 *
 * A single user's change (powerChange) is one ordered UPDATE along its ancestry (updateAncestry, with `planned` when
 * the caller set its planner settings already): the path a stake 10,000 levels deep takes (bench/team).
 */
export async function applyPower(trx: Transaction<DB>, changes: PowerChanges, planned?: Restore): Promise<void> {
  const single = changes.single
  if (single) {
    const self = sql`user_id = ${single.userId}::bigint`
    const power = sql`${single.power.toString()}::numeric`
    const performance = sql`${single.performance.toString()}::numeric`
    // New power of the day (addNewPower): every ancestor's team counter and the parent's direct counter grow, after
    // starting again from zero when the row's counters belong to an earlier day.
    const day = single.newOn
    const counters = day
      ? sql`,
        team_new_power = case when ${self} then team_new_power
          else case when new_power_day = ${day}::date then team_new_power else 0 end + ${power} end,
        direct_new_power = case when ${self} then direct_new_power
          else case when new_power_day = ${day}::date then direct_new_power else 0 end
            + case when user_id = (select parent_id from users where id = ${single.userId}::bigint) then ${power} else 0 end
          end,
        new_power_day = case when ${self} then new_power_day else ${day}::date end`
      : sql``
    const month = single.teamMonth && single.teamMonth.amount > 0n ? single.teamMonth : undefined
    await updateAncestry(
      trx,
      single.userId,
      true,
      sql`
        personal_power = personal_power + case when ${self} then ${power} else 0 end,
        team_power = team_power + case when ${self} then 0 else ${power} end,
        performance = performance + case when ${self} then ${performance} else 0 end,
        team_performance = team_performance + case when ${self} then 0 else ${performance} end${counters}${
          month ? teamMonthAssignments(month, sql`not (${self})`) : sql``
        }`,
      month !== undefined,
      planned,
    )
    return
  }
  await planned?.()
  // Many users at once (the settlement's expiries, with negative changes): the changes summed per user and per
  // ancestor once, the rows locked in user id order (`locked`, evaluated before the first row is updated: the UPDATE's
  // condition needs it), then updated in the same statement. Every user has a row (migration 0010), so an update is
  // all it takes, and a negative change is checked against the result, never against a proposed new row.
  await sql`
    with recursive delta as (
      select user_id, sum(power) as power, sum(performance) as performance from (${changes}) c group by user_id
    ), ${ancestryOf(sql`select user_id from delta`)},
    m as materialized (
      select user_id, sum(pp) as pp, sum(tp) as tp, sum(pf) as pf, sum(tf) as tf from (
        select user_id, power as pp, 0 as tp, performance as pf, 0 as tf from delta
        union all
        select a.ancestor_id, 0, d.power, 0, d.performance from ancestry a join delta d on d.user_id = a.user_id
      ) x group by user_id
    ),
    locked as (
      select user_id from user_power where user_id in (select user_id from m) order by user_id for update
    )
    update user_power p set
      personal_power = p.personal_power + m.pp,
      team_power = p.team_power + m.tp,
      performance = p.performance + m.pf,
      team_performance = p.team_performance + m.tf
    from m
    where p.user_id = m.user_id and (select count(*) from locked) > 0`.execute(trx)
}

/**
 * One user's change as a query for applyPower; `newOn`: the day it counts as new power (addNewPower); `teamMonth`: a
 * stake's value for its ancestors' team performance of the month, written in the same statement (updateAncestry).
 */
export const powerChange = (
  userId: string,
  power: bigint,
  performance = 0n,
  newOn?: string,
  teamMonth?: TeamMonthChange,
): PowerChanges =>
  Object.assign(
    sql`select ${userId}::bigint as user_id, ${power.toString()}::numeric as power, ${performance.toString()}::numeric as performance`,
    { single: { userId, power, performance, newOn, teamMonth } },
  )

/**
 * The power of a position just made (a stake, a deposit, a node), in the transaction that makes it: the holder's and
 * every ancestor's figures, the day's new-power counters of the ancestors (today's figures read them), and the event
 * (the ranking adds those up). `payment` is the position's ledger transfer into its system account: it runs after the
 * event and before the ancestors' figures, both as last writes (lib/commit.ts lastWrite: in a call's transaction,
 * after its answer is stored), so that the rows every position of the platform updates — that system account, then
 * the root's team row — are the transaction's last writes, in the order every position takes them (docs/scaling.md
 * "What saturates first"). The payment's refusal (a balance spent meanwhile) then comes from the commit, not from here.
 */
export async function addNewPower(
  trx: Transaction<DB>,
  event: {
    userId: string
    day: string
    source: PowerEventsTable['source']
    sourceId: string
    power: bigint
    performance?: bigint
    /** A stake's value for the team performance of its month (TeamMonthChange), in the same statement as the power. */
    teamMonth?: TeamMonthChange
  },
  payment?: () => Promise<unknown>,
): Promise<void> {
  if (event.power < 0n || (event.performance ?? 0n) < 0n) throw new Error('new power cannot be negative')
  await recordPowerEvent(trx, event)
  await publishTeamChange(trx, event.userId)
  const change = powerChange(event.userId, event.power, event.performance ?? 0n, event.day, event.teamMonth)
  // Last (after the call's answer is stored, lib/commit.ts): the payment into its system account, then every
  // ancestor's row, the root's among them, held from here to the COMMIT only.
  await lastWrite(trx, async () => {
    // The ancestry update's planner settings before the payment, so that no round trip runs between the payment's
    // transfer and that update (the transfer's function keeps planner settings of its own: migration 0036).
    const planned = await planWithout(trx, ANCESTRY_PLAN)
    await payment?.()
    await applyPower(trx, change, planned)
  })
}

/**
 * How many levels above a new position its `team` event reaches while a campaign runs (publishTeamChange): the nearest
 * ancestors, whose campaign pages it moves the most. Deeper ancestors' pages read the figures again when the app
 * regains focus or reloads; the bound keeps a stake at the bottom of a 10,000-deep chain from writing 10,000 events.
 */
export const TEAM_EVENT_LEVELS = 32

/**
 * While a campaign runs, a `team` event (with `position`) to the TEAM_EVENT_LEVELS nearest ancestors of a user whose
 * new position changed the figures its tiers read (the small-market fuel counts the whole downline), through the
 * outbox function the live triggers use (migration 0024-live): the campaign's progress page refreshes on it instead of
 * polling. They are the first of the user's ancestor segment and its anchor's (two row reads: each segment lists its
 * ancestors nearest first and the anchor's starts where the user's ends). Outside campaigns nothing is published.
 */
async function publishTeamChange(trx: Transaction<DB>, userId: string) {
  await sql`
    select live_publish('user:' || a.id, jsonb_build_object('kind', 'team', 'member', ${userId}::text, 'position', true))
    from users u, lateral (
      select near.id from (
        select id, n from unnest(u.ancestors) with ordinality as s(id, n)
        union all
        select id, cardinality(u.ancestors) + n
        from unnest((select p.ancestors from users p where p.id = u.ancestors[cardinality(u.ancestors)]))
          with ordinality as s(id, n)
      ) near
      order by near.n limit ${TEAM_EVENT_LEVELS}
    ) a
    where u.id = ${userId} and exists (select 1 from campaigns where starts_at <= now() and ends_at > now())
    order by a.id`.execute(trx)
}

/** Records new power as it happens (the ranking adds these up); once per source. */
async function recordPowerEvent(
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
