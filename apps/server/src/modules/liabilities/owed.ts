// What the platform owes its users: the one definition of liabilities, used by the solvency report
// (modules/assets, the console and the metrics) and by the proof-of-liabilities snapshots (./snapshot.ts).
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'

/**
 * Rows (user_id, asset, amount) whose sum per user and asset is what the platform owes that user in that asset:
 * - the user's balances, available + locked (a withdrawal waiting to be paid is locked, so still owed);
 * - the promised output not yet released of their stakes and finance deposits (total_output − released);
 * - the principal of their finance deposits not yet redeemed (a stake's principal is spent: it is not paid back);
 * - the output records of a settlement day not yet paid to them: a run records the day's output (releasing it from
 *   the positions) in its first phases and pays it in its last, user id by user id ('pay' phase, cursor = the last
 *   user paid), so mid-run the amount is in the records and in neither of the two above (also while the circuit
 *   breaker holds the day: it is still owed).
 * Node dividends and referral rewards are owed once recorded; nothing else is promised ahead.
 */
export const owedRows = () => sql<{ user_id: string; asset: string; amount: string }>`
  select user_id, asset, balance as amount from ledger_accounts where user_id is not null and balance <> 0
  union all
  select user_id, asset, total_output - released from stakes where released < total_output
  union all
  select user_id, asset, total_output - released from finance_deposits where released < total_output
  union all
  select user_id, asset, amount from finance_deposits where redeemed_at is null
  union all
  select o.user_id, o.asset, o.amount from output_records o join settlement_runs r on r.day = o.day
  where r.status <> 'done' and (r.phase <> 'pay' or o.user_id > r.cursor)`

/** The liabilities per asset (assets nobody is owed are absent): the solvency report's left side. */
export async function owedTotals(db: Database): Promise<Map<string, bigint>> {
  const { rows } = await sql<{ asset: string; total: string }>`
    select asset, sum(amount)::text as total from (${owedRows()}) owed group by asset`.execute(db)
  return new Map(rows.map((row) => [row.asset, BigInt(row.total)]))
}
