// Staking (docs/product.md#staking, docs/money.md "Stakes"): {product} locked for a configured period, producing a
// fixed total output released daily by the settlement, and power for the user and every ancestor while it mines.
import {
  amountParam,
  type api,
  Code,
  type DataOf,
  type OutputRecord,
  type PledgeConfig,
  type Stake,
  stakeReturns,
  worthOf,
} from '@solpledge/contract'
import { type Selectable, sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB, OutputType, StakesTable } from '../../db/schema.ts'
import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import type { Commit } from '../../lib/commit.ts'
import { addDays, utcDay } from '../../lib/day.ts'
import { listPage } from '../../lib/paging.ts'
import { assetDecimals, requireAsset } from '../assets/index.ts'
import { getBusinessConfig } from '../config/index.ts'
import { balances, systemAccount, transfer, userAccount } from '../ledger/index.ts'
import { addNewPower } from '../power/index.ts'
import { smallMarketFuel, usdtDecimals } from '../team/index.ts'
import { valuation } from '../trade/index.ts'

type StakeRow = Selectable<StakesTable>

/** The terms a stake is made on: fixed at entry (for a payment intent: when the intent was made). */
export interface StakeTerms {
  /** The staked {product}, base units. */
  amount: bigint
  days: number
  /** USDT base units per whole token. */
  price: bigint
  output_bps: number
  power_bps: number
}

/**
 * A stake's figures from its terms (all rounded down): USDT value, power and total output. The same function the app
 * shows its estimate with (`stakeReturns`, packages/contract/src/returns.ts).
 */
export function stakeFigures(terms: StakeTerms, decimals: number) {
  const { usdtValue, power, total } = stakeReturns(terms.amount, { price: terms.price, decimals }, terms)
  return { usdtValue, power, totalOutput: total }
}

/** `/invest/invest_pledge/{product}`: the staking configuration with the minimum converted at the valuation price. */
export async function pledgeConfig(db: Database, symbol: string): Promise<PledgeConfig> {
  const [{ price, config }, asset] = await Promise.all([valuation(db, symbol), requireAsset(db, symbol)])
  const minUsdt = BigInt(config.pledge.minUsdt)
  // Rounded up: a stake of min_amount is always worth at least min_u.
  const minAmount = worthOf(minUsdt, asset.decimals, price)
  return {
    symbol: asset.symbol,
    decimals: asset.decimals,
    price: price.toString(),
    min_u: minUsdt.toString(),
    min_amount: minAmount.toString(),
    periods: config.pledge.periods.map((p) => ({ days: p.days, output_bps: p.outputBps, power_bps: p.powerBps })),
  }
}

/** The staking configuration, or the refusal 'Failed to get configuration.' when it cannot be read. */
export async function readPledgeConfig(db: Database, symbol: string): Promise<PledgeConfig> {
  try {
    return await pledgeConfig(db, symbol)
  } catch {
    throw refuse('common.failedConfig')
  }
}

/**
 * Checks a new stake against the configuration in force: `days` must be a configured period and `amount` at least the
 * minimum. Returns the terms the stake is made on (the current price and the period's rates).
 */
export function stakeTerms(config: PledgeConfig, amount: bigint, days: number): StakeTerms {
  const period = config.periods.find((p) => p.days === days)
  if (!period) throw invalid('pledge.unknownPeriod')
  if (amount < BigInt(config.min_amount))
    throw refuse('pledge.belowMinimum', { min: amountParam(config.min_amount, config.decimals), unit: config.symbol })
  return { amount, days, price: BigInt(config.price), output_bps: period.output_bps, power_bps: period.power_bps }
}

/**
 * The one way a stake is made, inside the caller's transaction: the stake row, the principal moving from the user's
 * available {product} to the system account 'pledge' (type 'stake', key 'stake:<id>'), and its power for the user
 * and every ancestor. Used by POST pledgeStake (from the balance) and by a stake intent's fulfilment (the deposit
 * credits the balance in the same transaction, right before the stake's payment: both are last writes, lib/commit.ts).
 * A balance short of the amount is refused 'pledge.exceedsBalance' (when the payment is made, at the end of a call's
 * transaction); the caller's transaction must then roll back.
 */
export async function stakeFromBalance(
  trx: Transaction<DB>,
  input: { userId: string; asset: string; decimals: number; terms: StakeTerms; intentId?: string },
): Promise<StakeRow> {
  const { terms } = input
  // An early answer for a plainly excessive amount (and nothing written, whatever its size). Concurrent stakes that
  // each fit but not together are caught by the ledger's non-negative balance below. A stake intent's payment is
  // credited as a last write, just before this stake's payment (modules/intents): nothing to check before.
  if (input.intentId === undefined) {
    const held = (await balances(trx, input.userId))[input.asset]?.available ?? 0n
    if (terms.amount > held) throw refuse('pledge.exceedsBalance')
  }
  const { usdtValue, power, totalOutput } = stakeFigures(terms, input.decimals)
  const day = utcDay()
  const row = await trx
    .insertInto('stakes')
    .values({
      user_id: input.userId,
      asset: input.asset,
      amount: terms.amount.toString(),
      price: terms.price.toString(),
      usdt_value: usdtValue.toString(),
      days: terms.days,
      output_bps: terms.output_bps,
      power_bps: terms.power_bps,
      power: power.toString(),
      total_output: totalOutput.toString(),
      start_day: day,
      end_day: addDays(day, terms.days),
      intent_id: input.intentId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  // The accounts found now: the payment, a last write, is then one statement.
  const debit = await userAccount(trx, input.userId, input.asset, 'available')
  const credit = await systemAccount(trx, input.asset, 'pledge')
  const payment = async () => {
    try {
      await transfer(trx, {
        debit,
        credit,
        asset: input.asset,
        amount: terms.amount,
        type: 'stake',
        key: `stake:${row.id}`,
        reference: `stake:${row.id}`,
      })
    } catch (error) {
      if (error instanceof AppError && error.key === 'common.insufficientBalance') throw refuse('pledge.exceedsBalance')
      throw error
    }
  }
  await addNewPower(
    trx,
    {
      userId: input.userId,
      day,
      source: 'stake',
      sourceId: row.id,
      power,
      performance: usdtValue,
      // The team's performance of the stake's month, for the history (docs/product.md#history).
      teamMonth: { month: `${new Date(row.created_at).toISOString().slice(0, 7)}-01`, amount: usdtValue },
    },
    payment,
  )
  return row
}

function presentStake(row: StakeRow, decimals: number): Stake {
  return {
    id: row.id,
    coin: row.asset,
    decimals,
    amount: row.amount,
    price: row.price,
    usdt_value: row.usdt_value,
    days: row.days,
    output_bps: row.output_bps,
    power: row.power,
    total_output: row.total_output,
    produced: row.released,
    remaining: (BigInt(row.total_output) - BigInt(row.released)).toString(),
    start_day: row.start_day,
    end_day: row.end_day,
    status: row.status,
    paid: row.intent_id === null ? 'balance' : 'chain',
    created_at: row.created_at.toISOString(),
  }
}

/** Presents a stake row with its asset's decimals. */
export async function presentStakeRow(db: Database, row: StakeRow): Promise<Stake> {
  return presentStake(row, (await assetDecimals(db))(row.asset))
}

/** POST pledgeStake: stakes `amount` of {product} from the user's available balance for `days`. */
export async function stake(
  db: Database,
  commit: Commit<Stake>,
  symbol: string,
  userId: string,
  input: { amount: string; days: number },
): Promise<Stake> {
  const config = await readPledgeConfig(db, symbol)
  const terms = stakeTerms(config, BigInt(input.amount), input.days)
  return commit(async (trx) =>
    presentStake(
      await stakeFromBalance(trx, { userId, asset: symbol, decimals: config.decimals, terms }),
      config.decimals,
    ),
  )
}

/**
 * One page of the user's positions in `table` (stakes, finance deposits) of a status (all of them without one), newest
 * first, each presented with the decimals of its asset.
 */
export async function positionList<T extends 'stakes' | 'finance_deposits', P>(
  db: Database,
  table: T,
  userId: string,
  query: { status?: string | undefined; page: number; limit: number },
  present: (row: Selectable<DB[T]>, decimals: number) => P,
) {
  // Both tables have user_id, status, asset and id: built as the stakes' query for the query builder's types.
  const base = db
    .selectFrom(table as 'stakes')
    .where('user_id', '=', userId)
    .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status as StakeRow['status']))
  const decimals = await assetDecimals(db)
  return listPage(
    base,
    query,
    (qb) => qb.selectAll().orderBy('id', 'desc'),
    (row) => present(row as unknown as Selectable<DB[T]>, decimals(row.asset)),
  )
}

/** The user's stakes of a status (all of them without one), newest first. */
export const minerList = (
  db: Database,
  userId: string,
  query: { status?: 'mining' | 'expired' | undefined; page: number; limit: number },
): Promise<DataOf<typeof api.minerList>> => positionList(db, 'stakes', userId, query, presentStake)

/** One page of the user's output records of a position (a stake, a deposit), newest first. */
export async function outputRecords(
  db: Database,
  query: { userId: string; type: OutputType; parentId: string; page: number; limit: number },
) {
  const base = db
    .selectFrom('output_records')
    .where('user_id', '=', query.userId)
    .where('type', '=', query.type)
    .where('parent_id', '=', query.parentId)
  const decimals = await assetDecimals(db)
  return listPage(
    base,
    query,
    (qb) => qb.selectAll().orderBy('day', 'desc').orderBy('id', 'desc'),
    (row): OutputRecord => ({
      id: row.id,
      day: row.day,
      coin: row.asset,
      decimals: decimals(row.asset),
      amount: row.amount,
      type: row.type,
      created_at: row.created_at.toISOString(),
    }),
  )
}

/** One of the user's stakes with its output records; another user's stake does not exist for them. */
export async function minerDetail(
  db: Database,
  userId: string,
  query: { id: string; page: number; limit: number; parent_id?: string | undefined },
): Promise<DataOf<typeof api.minerDetail>> {
  if (query.parent_id !== undefined && query.parent_id !== query.id)
    throw invalid('error.invalidParams', { detail: 'parent_id must be the stake id' })
  const row = await db
    .selectFrom('stakes')
    .selectAll()
    .where('id', '=', query.id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'pledge.notFound')
  const [detail, records] = await Promise.all([
    presentStakeRow(db, row),
    outputRecords(db, { userId, type: 'pledge_output', parentId: row.id, page: query.page, limit: query.limit }),
  ])
  return { detail, records }
}

const sum = (value: string | null | undefined) => BigInt(value ?? 0)

/**
 * Fuel bars: the platform-wide total (all personal power) and the user's small-market fuel, team power minus the
 * largest direct leg, against the configured tiers (whole USDT of power).
 */
export async function fuel(db: Database, userId: string): Promise<DataOf<typeof api.fuel>> {
  const [config, total, own, decimals] = await Promise.all([
    getBusinessConfig(db),
    db.selectFrom('user_power').select(sql<string>`coalesce(sum(personal_power), 0)`.as('n')).executeTakeFirstOrThrow(),
    smallMarketFuel(db, userId),
    usdtDecimals(db),
  ])
  const { teamPower, largestLeg: leg, fuel: myFuel } = own
  const unit = 10n ** BigInt(decimals)
  const reached = config.fuelTiers.filter((tier) => BigInt(tier) * unit <= myFuel).length
  return {
    tiers: config.fuelTiers,
    total_fuel: sum(total.n).toString(),
    my_fuel: myFuel.toString(),
    team_power: teamPower.toString(),
    largest_leg: leg.toString(),
    reached,
    next_tier: config.fuelTiers[reached] ?? null,
  }
}

/** Today's figures of the user: output of the newest settled day, power, and today's new power below them. */
export async function today(db: Database, userId: string): Promise<DataOf<typeof api.today>> {
  const day = utcDay()
  const [settled, own] = await Promise.all([
    db
      .selectFrom('settlement_runs')
      .select('day')
      .where('status', '=', 'done')
      .orderBy('day', 'desc')
      .limit(1)
      .executeTakeFirst(),
    // One primary-key read: today's new power below the user is maintained with every change (addNewPower).
    db.selectFrom('user_power').selectAll().where('user_id', '=', userId).executeTakeFirst(),
  ])
  const counted = own?.new_power_day === day
  const output = settled
    ? await db
        .selectFrom('output_records as o')
        .innerJoin('assets as a', 'a.code', 'o.asset')
        .select(['o.asset', 'a.decimals', sql<string>`sum(o.amount)`.as('amount')])
        .where('o.user_id', '=', userId)
        .where('o.day', '=', settled.day)
        .groupBy(['o.asset', 'a.decimals', 'a.sort'])
        .orderBy('a.sort')
        .orderBy('o.asset')
        .execute()
    : []
  return {
    day,
    settled_day: settled?.day ?? null,
    output: output.map((o) => ({ coin: o.asset, decimals: o.decimals, amount: sum(o.amount).toString() })),
    personal_power: sum(own?.personal_power).toString(),
    team_power: sum(own?.team_power).toString(),
    direct_new_power: counted ? sum(own?.direct_new_power).toString() : '0',
    recommended_power: counted ? sum(own?.team_new_power).toString() : '0',
  }
}
