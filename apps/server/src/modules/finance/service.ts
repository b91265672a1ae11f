// Finance (docs/product.md#finance, docs/money.md "Finance deposits"): fixed-period USDT deposits from the asset
// balance with a power multiple and an output released daily by the settlement; redeemable to the balance once
// expired, once.
import { type api, Code, type DataOf, type FinanceDeposit, financeReturns } from '@solpledge/contract'
import type { Selectable } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { FinanceDepositsTable } from '../../db/schema.ts'
import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import type { Commit } from '../../lib/commit.ts'
import { addDays, utcDay } from '../../lib/day.ts'
import { assetDecimals } from '../assets/index.ts'
import { getBusinessConfig } from '../config/index.ts'
import { balances, systemAccount, transfer, userAccount } from '../ledger/index.ts'
import { outputRecords, positionList } from '../pledge/index.ts'
import { addNewPower } from '../power/index.ts'

/** Finance deposits are in USDT. */
export const FINANCE_COIN = 'USDT'

type DepositRow = Selectable<FinanceDepositsTable>

function present(row: DepositRow, decimals: number): FinanceDeposit {
  return {
    id: row.id,
    coin: row.asset,
    decimals,
    amount: row.amount,
    days: row.days,
    power_bps: row.power_bps,
    output_bps: row.output_bps,
    power: row.power,
    total_output: row.total_output,
    output: row.released,
    start_day: row.start_day,
    end_day: row.end_day,
    status: row.status,
    redeemable: row.status === 'expired' && row.redeemed_at === null,
    redeemed_at: row.redeemed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  }
}

const coinDecimals = async (db: Database) => (await assetDecimals(db))(FINANCE_COIN)

async function readConfig(db: Database) {
  try {
    return await getBusinessConfig(db)
  } catch {
    throw refuse('common.failedConfig')
  }
}

/** The configured products (periods with their power multiple and output). */
export async function financeProducts(db: Database): Promise<DataOf<typeof api.financeProducts>> {
  const [config, decimals] = await Promise.all([readConfig(db), coinDecimals(db)])
  return {
    coin: FINANCE_COIN,
    decimals,
    list: config.finance.map((p) => ({ days: p.days, power_bps: p.powerBps, output_bps: p.outputBps })),
  }
}

/**
 * Deposits `amount` USDT from the user's available balance for `days` (a configured product), in one transaction: the
 * deposit row, the principal moving to the system account 'finance' (type 'finance_deposit') and the deposit's power
 * (amount × the product's multiple, no performance) for the user and every ancestor.
 */
export async function deposit(
  db: Database,
  commit: Commit<FinanceDeposit>,
  userId: string,
  input: { days: number; amount: string },
): Promise<FinanceDeposit> {
  const product = (await readConfig(db)).finance.find((p) => p.days === input.days)
  if (!product) throw invalid('finance.unknownProduct')
  const decimals = await coinDecimals(db)
  const amount = BigInt(input.amount)
  // The figures the app estimated the deposit with (packages/contract/src/returns.ts).
  const { power, total: totalOutput } = financeReturns(amount, {
    days: product.days,
    output_bps: product.outputBps,
    power_bps: product.powerBps,
  })
  return commit(async (trx) => {
    // An early answer for a plainly excessive amount, with nothing written; concurrent deposits that each fit but
    // not together are caught by the ledger's non-negative balance.
    if (amount > ((await balances(trx, userId))[FINANCE_COIN]?.available ?? 0n))
      throw refuse('common.insufficientBalance')
    const day = utcDay()
    const row = await trx
      .insertInto('finance_deposits')
      .values({
        user_id: userId,
        asset: FINANCE_COIN,
        amount: amount.toString(),
        days: product.days,
        output_bps: product.outputBps,
        power_bps: product.powerBps,
        power: power.toString(),
        total_output: totalOutput.toString(),
        start_day: day,
        end_day: addDays(day, product.days),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    // The accounts found now: the payment, a last write, is then one statement.
    const debit = await userAccount(trx, userId, FINANCE_COIN, 'available')
    const credit = await systemAccount(trx, FINANCE_COIN, 'finance')
    await addNewPower(trx, { userId, day, source: 'finance', sourceId: row.id, power }, async () =>
      transfer(trx, {
        debit,
        credit,
        asset: FINANCE_COIN,
        amount,
        type: 'finance_deposit',
        key: `finance_deposit:${row.id}`,
        reference: `finance:${row.id}`,
      }),
    )
    return present(row, decimals)
  })
}

/** The user's deposits of a status (all of them without one), newest first. */
export const financeList = (
  db: Database,
  userId: string,
  query: { status?: 'active' | 'expired' | undefined; page: number; limit: number },
): Promise<DataOf<typeof api.financeList>> => positionList(db, 'finance_deposits', userId, query, present)

async function ownDeposit(db: Database, userId: string, id: string): Promise<DepositRow> {
  const row = await db
    .selectFrom('finance_deposits')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) throw new AppError(Code.NOT_FOUND, 'finance.notFound')
  return row
}

/** One of the user's deposits with its output records, newest first. */
export async function financeDetail(
  db: Database,
  userId: string,
  query: { id: string; page: number; limit: number },
): Promise<DataOf<typeof api.financeDetail>> {
  const row = await ownDeposit(db, userId, query.id)
  const [decimals, records] = await Promise.all([
    coinDecimals(db),
    outputRecords(db, { userId, type: 'finance_output', parentId: row.id, page: query.page, limit: query.limit }),
  ])
  return { detail: present(row, decimals), records }
}

/**
 * Redeems an expired deposit: its principal moves 'finance' → the user's available balance (type 'finance_redeem',
 * key 'finance_redeem:<id>') and redeemed_at is set, in one transaction, exactly once: the conditional update
 * (`redeemed_at is null`) lets one of any number of concurrent calls through, and the ledger key would refuse a second
 * credit anyway.
 */
export async function redeem(
  db: Database,
  commit: Commit<FinanceDeposit>,
  userId: string,
  id: string,
): Promise<FinanceDeposit> {
  const current = await ownDeposit(db, userId, id)
  if (current.status !== 'expired') throw refuse('finance.notMatured', { day: current.end_day })
  const decimals = await coinDecimals(db)
  return commit(async (trx) => {
    const row = await trx
      .updateTable('finance_deposits')
      .set({ redeemed_at: new Date() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('status', '=', 'expired')
      .where('redeemed_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
    if (!row) throw refuse('finance.alreadyRedeemed')
    await transfer(trx, {
      debit: await systemAccount(trx, row.asset, 'finance'),
      credit: await userAccount(trx, userId, row.asset, 'available'),
      asset: row.asset,
      amount: BigInt(row.amount),
      type: 'finance_redeem',
      key: `finance_redeem:${row.id}`,
      reference: `finance:${row.id}`,
    })
    return present(row, decimals)
  })
}
