// The monthly ranking (docs/architecture.md "Monthly ranking"): new power this UTC month, of the direct
// members (tab direct) or of the whole downline (tab team), from power_events. Snapshots are computed set-based by a
// scheduled job and read by key: the top 30 by rank, anyone's own position by (snapshot, user).
//
// Order: more power first; equal power, whoever reached it first (the time of the last event that counts, since the
// total only grows), then the lower user id. Every snapshot of a month replaces the one before; a new month starts
// empty, and the month before gets one final snapshot after it ends.
import { type api, type DataOf, RANK_TYPES, type RankType } from '@solpledge/contract'
import { sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'
import { RANK_CHECK_MS } from '../../lib/jobs.ts'
import { ancestryOf } from '../power/index.ts'
import { usdtDecimals } from '../team/index.ts'

export const RANK_TOP = 30
/** Advisory lock key of the ranking job ('rank' in ASCII): one instance computes at a time. */
const RANK_LOCK = 0x72616e6b

/** First day of the UTC month of `at`, 'YYYY-MM-01'. */
export const monthOf = (at: Date): string => `${at.toISOString().slice(0, 7)}-01`
/** First day of the month after `month`. */
export const nextMonth = (month: string): string => {
  const d = new Date(`${month}T00:00:00Z`)
  return monthOf(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)))
}
const previousMonth = (month: string): string => {
  const d = new Date(`${month}T00:00:00Z`)
  return monthOf(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)))
}
const startOf = (month: string) => new Date(`${month}T00:00:00Z`)

/** Each user's new power of the month and when it was reached: (user_id, power, reached_at). */
function monthlyPower(type: RankType, month: string) {
  const end = nextMonth(month)
  if (type === 'direct')
    return sql`
      select u.parent_id as user_id, sum(e.power) as power, max(e.created_at) as reached_at
      from power_events e join users u on u.id = e.user_id
      where e.day >= ${month}::date and e.day < ${end}::date and u.parent_id is not null
      group by u.parent_id`
  // Every member's events of the month once per member, then up its ancestry (the segment walk of modules/power),
  // summed per ancestor: exact, and the cost is the month's active members times their depth / 32 row reads.
  return sql`
    with recursive member as (
      select user_id, sum(power) as power, max(created_at) as reached_at from power_events
      where day >= ${month}::date and day < ${end}::date
      group by user_id
    ), ${ancestryOf(sql`select user_id from member`)}
    select a.ancestor_id as user_id, sum(m.power) as power, max(m.reached_at) as reached_at
    from ancestry a join member m on m.user_id = a.user_id
    group by a.ancestor_id`
}

async function latestSnapshot(db: Database | Transaction<DB>, month: string, type: RankType) {
  return db
    .selectFrom('rank_snapshots')
    .selectAll()
    .where('month', '=', month)
    .where('type', '=', type)
    .orderBy('computed_at', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** Computes one snapshot and drops the month's older ones. */
async function computeSnapshot(trx: Transaction<DB>, month: string, type: RankType, now: Date, intervalMs: number) {
  const snapshot = await trx
    .insertInto('rank_snapshots')
    .values({ month, type, computed_at: now, next_at: new Date(now.getTime() + intervalMs), entries: 0 })
    .returning('id')
    .executeTakeFirstOrThrow()
  const inserted = await sql`
    insert into rank_entries (snapshot_id, user_id, rank, power, reached_at)
    select ${snapshot.id}::bigint, user_id, row_number() over (order by power desc, reached_at, user_id), power, reached_at
    from (${monthlyPower(type, month)}) t
    where power > 0`.execute(trx)
  const entries = Number(inserted.numAffectedRows ?? 0n)
  await trx.updateTable('rank_snapshots').set({ entries }).where('id', '=', snapshot.id).execute()
  await trx
    .deleteFrom('rank_snapshots')
    .where('month', '=', month)
    .where('type', '=', type)
    .where('id', '<>', snapshot.id)
    .execute()
  return { month, type, entries }
}

/** When the newest new power was recorded (one read of the primary key's last entry), or null before the first. */
async function lastPowerEventAt(db: Database | Transaction<DB>): Promise<Date | null> {
  const row = await db.selectFrom('power_events').select('created_at').orderBy('id', 'desc').limit(1).executeTakeFirst()
  return row?.created_at ?? null
}

/**
 * Whether the current month's snapshot of `type` is due: there is none, it is `intervalMs` old, or new power was
 * recorded since it was computed (a stake, a deposit, a node: the figures Home shows would no longer agree).
 */
function isDue(
  snapshot: { computed_at: Date } | undefined,
  lastEventAt: Date | null,
  now: Date,
  intervalMs: number,
): boolean {
  if (!snapshot) return true
  if (snapshot.computed_at.getTime() + intervalMs <= now.getTime()) return true
  return lastEventAt !== null && lastEventAt >= snapshot.computed_at
}

/**
 * The job (and a read that finds its tab due): for each type, a snapshot of the current month when it is due
 * (isDue), and a final one of the month before when its newest was computed before it ended. One transaction under
 * an advisory lock: a second instance waits, then finds nothing due.
 */
export async function refreshRankings(
  db: Database,
  options: { intervalMs: number; now?: Date; types?: readonly RankType[] },
): Promise<{ month: string; type: RankType; entries: number }[]> {
  const now = options.now ?? new Date()
  const month = monthOf(now)
  const before = previousMonth(month)
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${RANK_LOCK})`.execute(trx)
    const lastEventAt = await lastPowerEventAt(trx)
    const done = []
    for (const type of options.types ?? RANK_TYPES) {
      const last = await latestSnapshot(trx, before, type)
      if (last && last.computed_at < startOf(month))
        done.push(await computeSnapshot(trx, before, type, now, options.intervalMs))
      if (isDue(await latestSnapshot(trx, month, type), lastEventAt, now, options.intervalMs))
        done.push(await computeSnapshot(trx, month, type, now, options.intervalMs))
    }
    return done
  })
}

/** An address as the ranking shows it: first 4 … last 4 characters. */
export const shortAddress = (address: string) =>
  address.length <= 10 ? address : `${address.slice(0, 4)}…${address.slice(-4)}`

/**
 * `/invest/Invest_pledge/ranking`: the newest snapshot of the current month (empty until the first one). With
 * `refresh` (the route), a tab found due (isDue: new power since it was computed) is recomputed first, so the ranking
 * agrees with Home's figures; `intervalMs` 0 (ranking switched off) never recomputes.
 */
export async function ranking(
  db: Database,
  userId: string,
  type: RankType,
  options: { intervalMs: number; now?: Date; refresh?: boolean },
): Promise<DataOf<typeof api.ranking>> {
  const now = options.now ?? new Date()
  const month = monthOf(now)
  let snapshot = await latestSnapshot(db, month, type)
  if (
    options.refresh &&
    options.intervalMs > 0 &&
    isDue(snapshot, await lastPowerEventAt(db), now, options.intervalMs)
  ) {
    await refreshRankings(db, { intervalMs: options.intervalMs, now, types: [type] })
    snapshot = await latestSnapshot(db, month, type)
  }
  const decimals = await usdtDecimals(db)
  const empty = {
    type,
    month: month.slice(0, 7),
    decimals,
    list: [],
    mine: { rank: null, power: '0' },
    computed_at: null,
    next_update_at: new Date(now.getTime() + Math.min(options.intervalMs, RANK_CHECK_MS)).toISOString(),
  }
  if (!snapshot) return empty
  const [top, mine] = await Promise.all([
    db
      .selectFrom('rank_entries as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.rank', 'r.power', 'u.address'])
      .where('r.snapshot_id', '=', snapshot.id)
      .where('r.rank', '<=', RANK_TOP)
      .orderBy('r.rank')
      .execute(),
    db
      .selectFrom('rank_entries')
      .select(['rank', 'power'])
      .where('snapshot_id', '=', snapshot.id)
      .where('user_id', '=', userId)
      .executeTakeFirst(),
  ])
  return {
    ...empty,
    list: top.map((row) => ({ rank: row.rank, address: shortAddress(row.address), power: row.power })),
    mine: mine ? { rank: mine.rank, power: mine.power } : empty.mine,
    computed_at: snapshot.computed_at.toISOString(),
    next_update_at: snapshot.next_at.toISOString(),
  }
}
