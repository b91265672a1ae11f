// The daily settlement (docs/settlement.md): for each UTC day, in order, it records the day's output of every mining
// stake and active finance deposit, the node pool's dividends by weight and the referral rewards by level, expires the
// positions whose last day it is, checks the day's payout against the circuit breaker (a day paying far more than its
// trailing week, or too much of the reserves, is held until an admin releases it), and then pays each user the day's
// sum of their records, per asset, in one ledger transfer. Set-based SQL in batches by id cursor: memory stays flat
// whatever the number of positions, and every batch commits its writes together with the run's progress, so a day is
// settled exactly once even when two instances run it at the same time or a process dies half-way.
import type { BusinessConfig, HoldReason, OutputType, SettlementDay } from '@solpledge/contract'
import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'
import { retryTransient } from '../../db/transient.ts'
import { addDays, dueAt, latestDueDay } from '../../lib/day.ts'
import { getBusinessConfig } from '../config/index.ts'
import { creditUsers } from '../ledger/index.ts'
import { applyPower } from '../power/index.ts'

/** Positions per batch transaction. */
export const DEFAULT_BATCH_SIZE = 20_000

/** Where a day's run is: the phases run in this order, each by id cursor ('pay' by user id). */
export type Phase = 'pledge' | 'finance' | 'nodes' | 'referral' | 'check' | 'pay' | 'done'

/** What the platform holds of an asset on chain (treasury and hot wallet), base units; null when it cannot say. */
export type Reserves = (asset: string) => Promise<bigint | null>

/** The ledger transfer type of a user's daily payment: the sum of their output records of the day in one asset. */
const SETTLEMENT_TRANSFER = 'settlement'

export interface SettleOptions {
  /** Asset code of the platform token: node dividends and referral rewards are paid in it. */
  product: string
  /** Rows per batch transaction (default DEFAULT_BATCH_SIZE). */
  batchSize?: number
  /** Called after each committed batch (the crash tests kill the process from here). */
  onBatch?: (batch: { day: string; phase: Phase }) => void
  /**
   * The reserves the circuit breaker compares a day's payout with; without it only the trailing average is checked.
   * A reading that fails fails the pass: the day waits at its check for the next one.
   */
  reserves?: Reserves
  /**
   * Called before a day's run is created with the moment the day is due: the server applies the configuration
   * changes due by then (their notice periods ended), so the day pays by the rules in force when it became due.
   */
  beforeDay?: (due: Date) => Promise<void>
}

/**
 * What a run keeps besides phase and cursor: the configuration it pays by (taken when the run is created, so a
 * change in the middle of a day does not split it), the node pool's weights once that phase starts, and counters.
 */
interface RunSummary {
  pool: string
  referral: { level: number; rateBps: number }[]
  /** Who earns referral rewards (absent in runs created before the guard existed: no guard). */
  guard?: BusinessConfig['referralGuard']
  /** The circuit breaker's limits (absent in runs created before it existed: the configuration in force). */
  breaker?: BusinessConfig['settlementBreaker']
  /** The day's payout per asset, base units, written by the 'check' phase: the next days' trailing average. */
  totals?: Record<string, string>
  /**
   * The day's records written so far, per type and asset: how many and their sum (base units). Each batch that writes
   * records adds its own in its transaction, so the check's totals and the day's report need not read the records
   * again (absent in runs created before it existed: those read the records).
   */
  recorded?: Partial<Record<OutputType, Record<string, { count: number; amount: string }>>>
  /** Why the circuit breaker held the day, and (once an admin released it) who released it. */
  hold?: { at: string; reasons: HoldReason[]; released?: { by: string; at: string } }
  /** Sum of the weights and highest id of the nodes that share the pool (fixed at the start of the phase). */
  nodes?: { weight: string; maxId: string }
  expired: { stakes: number; finance: number }
}

const initialSummary = (config: BusinessConfig): RunSummary => ({
  pool: config.nodePoolDaily,
  referral: config.referralRewards.filter((r) => r.rateBps > 0),
  guard: config.referralGuard,
  breaker: config.settlementBreaker,
  recorded: {},
  expired: { stakes: 0, finance: 0 },
})

/** What a batch's records come to per asset (null: it wrote none), from its statement's `recorded` rows (WRITTEN). */
type Written = { asset: string; count: number; amount: string }[] | null

/**
 * Selects the Written of the statement's data-modifying CTE `recorded` (the output records it inserted, returning at
 * least `asset` and `amount`).
 */
const WRITTEN = sql`(
  select json_agg(json_build_object('asset', asset, 'count', n, 'amount', total) order by asset)
  from (select asset, count(*)::int as n, sum(amount)::text as total from recorded group by asset) w
)`

/** Adds a batch's records of one type to the run's `recorded`. */
function addRecorded(summary: RunSummary, type: OutputType, written: Written) {
  if (!summary.recorded || !written) return
  summary.recorded[type] ??= {}
  const byAsset = summary.recorded[type]
  for (const { asset, count, amount } of written) {
    const before = byAsset[asset] ?? { count: 0, amount: '0' }
    byAsset[asset] = { count: before.count + count, amount: (BigInt(before.amount) + BigInt(amount)).toString() }
  }
}

/** Midnight UTC at the start of `day`, as timestamptz: nodes bought before it share that day's pool. */
const startOf = (day: string) => sql`(${day}::date::timestamp at time zone 'UTC')`

/**
 * Settles every day not yet settled up to `target`, in order, and reports each. When there is nothing left to do
 * up to `target` it reports `target` alone (or nothing when that day was never settled). The first day ever settled
 * is the day after the earliest position's start (or `target` when there are no positions); after that, the day after
 * the last day done, so days missed while no instance ran are caught up in order.
 */
export async function settleThrough(db: Database, target: string, options: SettleOptions): Promise<SettlementDay[]> {
  const first = await firstUnsettledDay(db, target)
  if (first > target) {
    const report = await dayReport(db, target)
    return report ? [report] : []
  }
  return settleDays(db, first, target, options)
}

/** The timer's job: settles every day due at `now` (settlementHourUtc of the configuration) not yet settled. */
export async function settleDue(db: Database, options: SettleOptions, now = new Date()): Promise<SettlementDay[]> {
  const config = await getBusinessConfig(db)
  const target = latestDueDay(now, config.settlementHourUtc)
  const first = await firstUnsettledDay(db, target)
  return first > target ? [] : settleDays(db, first, target, options)
}

/**
 * Settles the days `first` … `target` in order and reports each. A day the circuit breaker holds stops the walk: the
 * days after it wait for its release, so the days are still paid in order and each exactly once.
 */
async function settleDays(db: Database, first: string, target: string, options: SettleOptions) {
  const list: SettlementDay[] = []
  for (let day = first; day <= target; day = addDays(day, 1)) {
    await settleDay(db, day, options)
    const report = (await dayReport(db, day)) as SettlementDay
    list.push(report)
    if (report.status === 'held') break
  }
  return list
}

/** The next day to settle (may be after `target`). */
export async function firstUnsettledDay(db: Database, target: string): Promise<string> {
  const runs = await db
    .selectFrom('settlement_runs')
    .select([
      sql<string | null>`max(day) filter (where status = 'done')`.as('done'),
      // A held day is not done: it comes first until an admin releases it.
      sql<string | null>`min(day) filter (where status <> 'done')`.as('running'),
    ])
    .executeTakeFirstOrThrow()
  if (runs.running !== null && (runs.done === null || runs.running < runs.done)) return runs.running
  if (runs.done !== null) return addDays(runs.done, 1)
  const { rows } = await sql<{ earliest: string | null }>`
    select least(
      (select min(start_day) from stakes),
      (select min(start_day) from finance_deposits),
      (select min((created_at at time zone 'UTC')::date) from user_nodes)
    )::text as earliest`.execute(db)
  const earliest = rows[0]?.earliest ?? null
  return earliest === null ? target : addDays(earliest, 1)
}

/**
 * Settles one day: creates its run (once: the day is its key) and advances it batch by batch until done. Each batch
 * is one transaction that takes the run row FOR UPDATE, reads the phase and cursor, does the batch and writes the
 * new phase and cursor: a second instance waits for the row and then continues from where the first left it, and a
 * batch that did not commit left nothing behind.
 */
export async function settleDay(db: Database, day: string, options: SettleOptions): Promise<void> {
  if (options.beforeDay) await options.beforeDay(dueAt(day, (await getBusinessConfig(db)).settlementHourUtc))
  const config = await getBusinessConfig(db)
  await db
    .insertInto('settlement_runs')
    .values({ day, phase: 'pledge', summary: JSON.stringify(initialSummary(config)) })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute()
  for (;;) {
    // The check reads the reserves on chain before its transaction, never while it holds the run's row (and, on
    // PGlite, the one database session).
    const reserves = (await phaseOf(db, day)) === 'check' ? await readReserves(db, options.reserves) : undefined
    // A deadlock, a serialization failure or a broken connection aborts only the batch: it runs again (db/transient.ts).
    const phase = await retryTransient(() => db.transaction().execute((trx) => step(trx, day, options, reserves)))
    if (phase === null) return
    options.onBatch?.({ day, phase })
  }
}

const phaseOf = async (db: Database, day: string) =>
  (await db.selectFrom('settlement_runs').select('phase').where('day', '=', day).executeTakeFirst())?.phase

/** The reserves of every asset (a handful; null for one the provider cannot say, or without a provider). */
async function readReserves(db: Database, reserves: Reserves | undefined) {
  const read = new Map<string, bigint | null>()
  for (const { code } of await db.selectFrom('assets').select('code').execute())
    read.set(code, reserves ? await reserves(code) : null)
  return read
}

/** One batch of the run of `day`; returns the phase it worked on, or null when the day is done. */
async function step(
  trx: Transaction<DB>,
  day: string,
  options: SettleOptions,
  reserves: Map<string, bigint | null> | undefined,
): Promise<Phase | null> {
  // Batches sort and aggregate tens of thousands of rows: room to do it in memory, for this transaction only. And no
  // JIT compilation: it took up to a tenth of a batch's statement and saves nothing on these plans.
  await sql`select set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`.execute(trx)
  const run = await trx
    .selectFrom('settlement_runs')
    .select(['status', 'phase', 'cursor', 'summary'])
    .where('day', '=', day)
    .forUpdate()
    .executeTakeFirstOrThrow()
  // A held day waits for its release; a done one for nothing.
  if (run.status !== 'running') return null
  const phase = run.phase as Phase
  const summary = run.summary as RunSummary
  const cursor = run.cursor
  const size = options.batchSize ?? DEFAULT_BATCH_SIZE
  let next: { phase: Phase; cursor: string }
  switch (phase) {
    case 'pledge':
    case 'finance': {
      const kind = phase === 'pledge' ? STAKES : FINANCE
      const batch = await releasePositions(trx, kind, day, cursor, size)
      addRecorded(summary, kind.type, batch.recorded)
      if (batch.expired > 0) summary.expired[phase === 'pledge' ? 'stakes' : 'finance'] += batch.expired
      next =
        batch.last === null
          ? { phase: phase === 'pledge' ? 'finance' : 'nodes', cursor: '0' }
          : { phase, cursor: batch.last }
      break
    }
    case 'nodes': {
      summary.nodes ??= await nodeWeights(trx, day)
      const { last, recorded } =
        BigInt(summary.pool) > 0n && BigInt(summary.nodes.weight) > 0n
          ? await payNodes(trx, day, cursor, size, summary, options.product)
          : { last: null, recorded: null }
      addRecorded(summary, 'node_dividend', recorded)
      next = last === null ? { phase: 'referral', cursor: '0' } : { phase, cursor: last }
      break
    }
    case 'referral':
      // One pass over all of the day's pledge output: hash joins against the users, whatever the estimates say, and
      // sorted aggregates (streaming over the records' key order; a hash table of every member cost more).
      await sql`select set_config('enable_nestloop', 'off', true), set_config('enable_hashagg', 'off', true)`.execute(
        trx,
      )
      addRecorded(summary, 'referral_reward', await recordReferrals(trx, day, summary, options.product))
      next = { phase: 'check', cursor: '0' }
      break
    case 'check': {
      // The reserves were read before this transaction; when the phase was reached meanwhile, read them first.
      if (reserves === undefined) return phase
      summary.totals = summary.recorded ? totalsOf(summary.recorded) : await dayTotals(trx, day)
      const reasons = summary.hold?.released
        ? []
        : await breakerReasons(
            trx,
            day,
            summary,
            reserves,
            summary.breaker ?? (await getBusinessConfig(trx)).settlementBreaker,
          )
      next = { phase: 'pay', cursor: '0' }
      if (reasons.length > 0) {
        summary.hold = { at: new Date().toISOString(), reasons }
        await trx
          .updateTable('settlement_runs')
          .set({
            status: 'held',
            phase: next.phase,
            cursor: next.cursor,
            summary: JSON.stringify(summary),
            updated_at: sql`now()`,
          })
          .where('day', '=', day)
          .execute()
        return phase
      }
      break
    }
    case 'pay': {
      const last = await payUsers(trx, day, cursor, size)
      next = last === null ? { phase: 'done', cursor: '0' } : { phase, cursor: last }
      break
    }
    default:
      throw new Error(`settlement ${day}: unknown phase ${phase}`)
  }
  await trx
    .updateTable('settlement_runs')
    .set({
      phase: next.phase,
      cursor: next.cursor,
      summary: JSON.stringify(summary),
      updated_at: sql`now()`,
      ...(next.phase === 'done' ? { status: 'done' as const, finished_at: sql`now()` } : {}),
    })
    .where('day', '=', day)
    .execute()
  return phase
}

/** The day's payout per asset, in asset order, from what its batches recorded. */
function totalsOf(recorded: NonNullable<RunSummary['recorded']>): Record<string, string> {
  const totals = new Map<string, bigint>()
  for (const byAsset of Object.values(recorded))
    for (const [asset, { amount }] of Object.entries(byAsset))
      totals.set(asset, (totals.get(asset) ?? 0n) + BigInt(amount))
  return Object.fromEntries(
    [...totals].sort(([a], [b]) => (a < b ? -1 : 1)).map(([asset, total]) => [asset, total.toString()]),
  )
}

/**
 * The day's payout per asset (every output record: outputs, dividends, rewards), base units, read from the records:
 * for a run created before `recorded` was kept.
 */
async function dayTotals(trx: Transaction<DB>, day: string): Promise<Record<string, string>> {
  const rows = await trx
    .selectFrom('output_records')
    .select(['asset', sql<string>`sum(amount)::text`.as('total')])
    .where('day', '=', day)
    .groupBy('asset')
    .orderBy('asset')
    .execute()
  return Object.fromEntries(rows.map((row) => [row.asset, row.total]))
}

/** How many settled days before a day make its trailing average. */
const BREAKER_WINDOW_DAYS = 7

/**
 * Why the circuit breaker holds day D, per asset (none: it is paid): its payout is more than `averageMultipleBps` of
 * the average of the settled days among the 7 before it (only when there are such days and their average is above 0),
 * or more than `reserveShareBps` of what the platform holds of the asset on chain (when that could be read).
 */
async function breakerReasons(
  trx: Transaction<DB>,
  day: string,
  summary: RunSummary,
  reserves: Map<string, bigint | null>,
  limits: BusinessConfig['settlementBreaker'],
): Promise<HoldReason[]> {
  const history = await trx
    .selectFrom('settlement_runs')
    .select(sql<Record<string, string>>`summary -> 'totals'`.as('totals'))
    .where('status', '=', 'done')
    .where('day', '<', day)
    .where('day', '>=', addDays(day, -BREAKER_WINDOW_DAYS))
    .where(sql<boolean>`summary ? 'totals'`)
    .execute()
  const decimals = new Map(
    (await trx.selectFrom('assets').select(['code', 'decimals']).execute()).map((a) => [a.code, a.decimals]),
  )
  const reasons: HoldReason[] = []
  for (const [asset, text] of Object.entries(summary.totals ?? {})) {
    const total = BigInt(text)
    const reason = (rule: HoldReason['rule'], against: bigint, limit: number): HoldReason => ({
      coin: asset,
      decimals: decimals.get(asset) ?? 0,
      rule,
      total: text,
      against: against.toString(),
      limit_bps: limit,
    })
    if (history.length > 0) {
      const sum = history.reduce((acc, row) => acc + BigInt(row.totals[asset] ?? '0'), 0n)
      const days = BigInt(history.length)
      // total > (sum / days) × multiple / 10000, exactly.
      if (sum > 0n && total * days * 10_000n > sum * BigInt(limits.averageMultipleBps))
        reasons.push(reason('average', sum / days, limits.averageMultipleBps))
    }
    const held = reserves.get(asset) ?? null
    if (held !== null && total * 10_000n > held * BigInt(limits.reserveShareBps))
      reasons.push(reason('reserves', held, limits.reserveShareBps))
  }
  return reasons
}

/** A kind of position with a daily release: its table, status in force, output type and power removed at expiry. */
interface PositionKind {
  table: 'stakes' | 'finance_deposits'
  live: string
  type: OutputType
  /** The performance the position gave (removed with its power at expiry). */
  performance: RawBuilder<unknown>
}
const STAKES: PositionKind = {
  table: 'stakes',
  live: 'mining',
  type: 'pledge_output',
  performance: sql.ref('usdt_value'),
}
const FINANCE: PositionKind = {
  table: 'finance_deposits',
  live: 'active',
  type: 'finance_output',
  performance: sql.lit(0),
}

/**
 * Day D's release of the next `size` positions in force after `cursor` (start_day < D <= end_day): floor(total/days)
 * on each day before the last, never past the total, and on the last day (end_day) whatever remains, so the releases
 * add up to total_output exactly. The last day also expires the position and removes its power (modules/power). Every
 * release is an output record; the 'pay' phase credits the records.
 */
async function releasePositions(
  trx: Transaction<DB>,
  kind: PositionKind,
  day: string,
  cursor: string,
  size: number,
): Promise<{ last: string | null; expired: number; recorded: Written }> {
  const table = sql.table(kind.table)
  // The batch is the next `size` positions in force by id; the update reads the positions by the batch's id range
  // (cursor, last] (an index range whatever the planner's estimates), never by a scan of the whole table. The output
  // record is written first, and a release is added only with its record: a position's record of a day can be written
  // once (primary key), so a second release of the same day would fail the batch rather than pay twice.
  const { rows } = await sql<{
    last: string | null
    expired: number
    ids: string | null
    recorded: Written
  }>`
    with batch as materialized (
      select id, user_id, asset, end_day = ${day}::date as last,
        case when end_day = ${day}::date then total_output - released
          else least(div(total_output, days), total_output - released) end as amount
      from ${table}
      where status = ${kind.live} and start_day < ${day}::date and end_day >= ${day}::date and id > ${cursor}
      order by id
      limit ${size}
    ),
    recorded as (
      insert into output_records (user_id, day, type, parent_id, asset, amount)
      select user_id, ${day}::date, ${kind.type}, id, asset, amount from batch where amount > 0 order by id
      returning parent_id, asset, amount
    ),
    changed as (
      update ${table} p set
        released = p.released + coalesce(r.amount, 0),
        status = case when b.last then 'expired' else p.status end,
        expired_at = case when b.last then now() else p.expired_at end
      from batch b left join recorded r on r.parent_id = b.id
      where p.id = b.id and p.id > ${cursor} and p.id <= (select max(id) from batch)
      returning p.id, b.last
    )
    select (select max(id)::text from batch) as last, count(*)::int as expired, array_agg(id)::text as ids,
      ${WRITTEN} as recorded
    from changed where last`.execute(trx)
  const { last = null, expired = 0, ids = null, recorded = null } = rows[0] ?? {}
  // The expired positions' power leaves their holders and every ancestor (found by id: a few of the batch's rows).
  if (ids !== null)
    await applyPower(
      trx,
      sql`select user_id, -power as power, -${kind.performance} as performance from ${table} where id = any(${ids}::bigint[])`,
    )
  return { last, expired, recorded }
}

/** The nodes sharing day D's pool: bought before D began (UTC), fixed when the phase starts. */
async function nodeWeights(trx: Transaction<DB>, day: string): Promise<{ weight: string; maxId: string }> {
  const { rows } = await sql<{ weight: string; max_id: string }>`
    select coalesce(sum(dividend_weight), 0)::text as weight, coalesce(max(id), 0)::text as max_id
    from user_nodes where created_at < ${startOf(day)}`.execute(trx)
  return { weight: rows[0]?.weight ?? '0', maxId: rows[0]?.max_id ?? '0' }
}

/** Node dividends of the next batch: floor(pool × weight / total weight) each, added to user_nodes.dividends. */
async function payNodes(
  trx: Transaction<DB>,
  day: string,
  cursor: string,
  size: number,
  summary: RunSummary,
  product: string,
): Promise<{ last: string | null; recorded: Written }> {
  const nodes = summary.nodes as { weight: string; maxId: string }
  const { rows } = await sql<{ last: string | null; recorded: Written }>`
    with batch as (
      select id, user_id, div(${summary.pool}::numeric * dividend_weight, ${nodes.weight}::numeric) as amount
      from user_nodes
      where id > ${cursor} and id <= ${nodes.maxId} and created_at < ${startOf(day)}
      order by id
      limit ${size}
    ),
    recorded as (
      insert into output_records (user_id, day, type, parent_id, asset, amount)
      select user_id, ${day}::date, 'node_dividend', id, ${product}, amount from batch where amount > 0 order by id
      returning parent_id, asset, amount
    ),
    changed as (
      update user_nodes n set dividends = n.dividends + r.amount from recorded r where n.id = r.parent_id
    )
    select (select max(id)::text from batch) as last, ${WRITTEN} as recorded`.execute(trx)
  return { last: rows[0]?.last ?? null, recorded: rows[0]?.recorded ?? null }
}

/**
 * Referral rewards of day D in one set-based pass: for each member with pledge output that day, the ancestor at depth
 * L gets floor(output × rate(L) / 10000); one output record per ancestor, the sum over its members and levels (its
 * parent_id is the ancestor itself: the sum of many members has no one member). A member's ancestors up to the
 * deepest level are read from its ancestor segment (users.ancestors: parent first, up to 32 of them; migration
 * 0009-team) in one join of the members with the users, and continued from the anchor's segment, one index lookup
 * each, only for the few members less than that many levels below an anchor.
 *
 * The referral guard (docs/economics.md) pays an ancestor only when its stakes in force on D (start_day < D <= end_day,
 * the stakes that produce that day) are worth at least `minStakeUsdt` at entry, and — with `directPerLevel` — level L
 * only when it has at least L direct members. What it does not qualify for is not paid to anyone.
 */
async function recordReferrals(
  trx: Transaction<DB>,
  day: string,
  summary: RunSummary,
  product: string,
): Promise<Written> {
  if (summary.referral.length === 0) return null
  const depth = Math.max(...summary.referral.map((r) => r.level))
  // rate[L]: the rate of level L in basis points (0 for a level without one).
  const rates = Array.from({ length: depth }, (_, i) => summary.referral.find((r) => r.level === i + 1)?.rateBps ?? 0)
  const minStake = BigInt(summary.guard?.minStakeUsdt ?? '0')
  const staking =
    minStake > 0n
      ? sql`join (
          select user_id from stakes where start_day < ${day}::date and end_day >= ${day}::date
          group by user_id having sum(usdt_value) >= ${minStake.toString()}::numeric
        ) q on q.user_id = r.ancestor_id`
      : sql``
  const direct = summary.guard?.directPerLevel
    ? sql`join user_power p on p.user_id = r.ancestor_id and p.direct_count >= r.level`
    : sql``
  const { rows } = await sql<{ recorded: Written }>`
    with recursive member as (
      select user_id, sum(amount) as output from output_records
      where day = ${day}::date and type = 'pledge_output' group by user_id
    ),
    segment(output, anc, base) as (
      select m.output, u.ancestors, 0 from member m join users u on u.id = m.user_id
      union all
      select s.output, (select a.ancestors from users a where a.id = s.anc[cardinality(s.anc)]), s.base + cardinality(s.anc)
      from segment s where cardinality(s.anc) > 0 and s.base + cardinality(s.anc) < ${depth}
    ),
    reward(ancestor_id, level, amount) as (
      select x.id, s.base + x.n, div(s.output * (${`{${rates.join(',')}}`}::numeric[])[s.base + x.n], 10000)
      from segment s, unnest(s.anc[1:${depth} - s.base]) with ordinality x(id, n)
    ),
    recorded as (
      insert into output_records (user_id, day, type, parent_id, asset, amount)
      select r.ancestor_id, ${day}::date, 'referral_reward', r.ancestor_id, ${product}, sum(r.amount) from reward r
      ${staking}
      ${direct}
      group by r.ancestor_id
      having sum(r.amount) > 0
      order by r.ancestor_id
      returning asset, amount
    )
    select ${WRITTEN} as recorded`.execute(trx)
  return rows[0]?.recorded ?? null
}

/**
 * Pays the next batch of users (in user id order) what their output records of day D add up to, per asset: one
 * ledger transfer from 'emission' per user and asset, keyed 'settlement:<day>:<user id>:<asset>' (the id zero-padded
 * to 19 digits, so a batch's keys sort as its users do and land next to each other in the unique index). The records
 * keep the detail per stake, deposit, node and referral reward.
 */
async function payUsers(trx: Transaction<DB>, day: string, cursor: string, size: number): Promise<string | null> {
  // The batch is the user id range (cursor, last], `size` records long (a user's records are never split), found by
  // the primary key: never by a scan of the table, which the planner chose while the day's records had no statistics.
  await sql`select set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`.execute(trx)
  const bound = await sql<{ last: string | null }>`
    select max(user_id)::text as last from (
      select user_id from output_records where day = ${day}::date and user_id > ${cursor} order by user_id limit ${size}
    ) b`.execute(trx)
  const last = bound.rows[0]?.last ?? null
  if (last === null) return null
  await creditUsers(trx, {
    from: 'emission',
    type: SETTLEMENT_TRANSFER,
    // The batch publishes nothing else and, after this, only updates its run row, locked at its start (step).
    publishNumbered: true,
    credits: sql`
      select user_id, asset, sum(amount) as amount,
        ${`${SETTLEMENT_TRANSFER}:${day}:`} || lpad(user_id::text, 19, '0') || ':' || asset as key,
        ${`settlement:${day}`} as reference
      from output_records
      where day = ${day}::date and user_id > ${cursor} and user_id <= ${last}
      group by user_id, asset`,
  })
  return last
}

/** A day's run as the operator sees it: totals per output type (from output_records) and expiries. */
export async function dayReport(db: Database, day: string): Promise<SettlementDay | undefined> {
  const run = await db.selectFrom('settlement_runs').selectAll().where('day', '=', day).executeTakeFirst()
  if (!run) return undefined
  const summary = run.summary as RunSummary
  const totals = summary.recorded ? await reportOf(db, summary.recorded) : await recordTotals(db, day)
  return {
    day,
    status: run.status,
    totals,
    expired: { stakes: summary.expired.stakes, finance: summary.expired.finance },
    finished_at: run.finished_at ? run.finished_at.toISOString() : null,
  }
}

/** The report's totals from what the day's batches recorded, by type then asset. */
async function reportOf(db: Database, recorded: NonNullable<RunSummary['recorded']>): Promise<SettlementDay['totals']> {
  const rows = Object.entries(recorded).flatMap(([type, byAsset]) =>
    Object.entries(byAsset).map(([coin, { count, amount }]) => ({ type: type as OutputType, coin, count, amount })),
  )
  if (rows.length === 0) return []
  const decimals = new Map(
    (
      await db
        .selectFrom('assets')
        .select(['code', 'decimals'])
        .where('code', 'in', [...new Set(rows.map((r) => r.coin))])
        .execute()
    ).map((a) => [a.code, a.decimals]),
  )
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  return rows
    .sort((a, b) => order(a.type, b.type) || order(a.coin, b.coin))
    .map((r) => ({
      type: r.type,
      coin: r.coin,
      decimals: decimals.get(r.coin) as number,
      count: r.count,
      amount: r.amount,
    }))
}

/** The report's totals read from the day's records: for a run created before `recorded` was kept. */
async function recordTotals(db: Database, day: string): Promise<SettlementDay['totals']> {
  const totals = await db
    .selectFrom('output_records')
    .innerJoin('assets', 'assets.code', 'output_records.asset')
    .select([
      'type',
      'asset',
      'assets.decimals',
      (eb) => eb.fn.countAll<string>().as('count'),
      sql<string>`sum(amount)`.as('amount'),
    ])
    .where('day', '=', day)
    .groupBy(['type', 'asset', 'assets.decimals'])
    .orderBy('type')
    .orderBy('asset')
    .execute()
  return totals.map((t) => ({
    type: t.type,
    coin: t.asset,
    decimals: t.decimals,
    count: Number(t.count),
    amount: t.amount,
  }))
}

/**
 * Tests only (settlement-crash.test.ts): SETTLEMENT_CRASH_AFTER_BATCHES=n kills the process with SIGKILL right after
 * its n-th committed batch, as a power cut would. Never set it in production.
 */
export function crashHook(env: NodeJS.ProcessEnv = process.env): SettleOptions['onBatch'] {
  const after = Number(env.SETTLEMENT_CRASH_AFTER_BATCHES ?? 0)
  if (!Number.isInteger(after) || after <= 0) return undefined
  let batches = 0
  return () => {
    if (++batches >= after) process.kill(process.pid, 'SIGKILL')
  }
}
