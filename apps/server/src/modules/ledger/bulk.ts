// Set-based credits for the jobs that pay many users at once (the daily settlement): the same double-entry rules as
// `transfer` in service.ts — one transfer per credit under a unique idempotency key, balances moved in the same
// transaction, user accounts never negative — in a fixed number of statements whatever the number of credits.
import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'

export interface BulkCredit {
  /**
   * The credits: a query selecting `user_id bigint, asset text, amount numeric, key text, reference text`, one row per
   * transfer, amount > 0, keys unique. It is evaluated several times inside the transaction, so it must read rows the
   * transaction itself controls (e.g. output records it has just written) and give the same rows each time.
   */
  credits: RawBuilder<unknown>
  /** The system account each amount leaves, per asset ('emission', …). */
  from: string
  /** The transfers' type ('pledge_output', …). */
  type: string
}

/**
 * Moves each credit's amount from the system account `from` of its asset to the user's available account of that
 * asset, at most once per key: a key that already exists is skipped (its transfer was made before). Returns how many
 * transfers were made and their sum.
 *
 * One statement finds each credit's two accounts (one index lookup per credit), inserts the transfers
 * (`on conflict (idempotency_key) do nothing returning`) and applies to each account the sum of what it received or
 * gave, visiting the accounts in ascending id order — the order `transfer` locks its two accounts in, so a bulk credit
 * and concurrent transfers never wait on each other in a cycle. When some account does not exist yet (a user's first
 * credit in an asset, a new system account), it is created (`on conflict do nothing`) and the statement runs again for
 * the rest: the credits already made are skipped by their keys.
 *
 * Runs inside the caller's transaction (pass `trx`), which must roll back if this throws.
 */
export async function creditUsers(trx: Transaction<DB>, input: BulkCredit): Promise<{ count: number; amount: bigint }> {
  const { credits, from, type } = input
  // A batch touches thousands of perhaps millions of accounts: accounts are found by per-row index lookups (scalar
  // subqueries, nested-loop joins and index scans only, for these statements), never by a hash or merge join or a
  // scan that would read every account once the planner believes the batch is large. Index scans of the primary key
  // and a sorted outer side also keep the balance updates in account id order. Sums are sorted aggregates: hash tables
  // of numeric sums cost a quarter of a payment batch more.
  const restore = await planWithout(trx, ['hashjoin', 'mergejoin', 'seqscan', 'bitmapscan', 'hashagg'])
  const userAccountOf = (row: string) =>
    sql.raw(
      `(select x.id from ledger_accounts x where x.user_id = ${row}.user_id and x.asset = ${row}.asset and x.kind = 'available')`,
    )
  const systemAccountOf = (row: string) =>
    sql`(select x.id from ledger_accounts x where x.user_id is null and x.asset = ${sql.raw(row)}.asset and x.kind = ${from})`
  const transfers = async () => {
    const { rows } = await sql<{ count: string; amount: string; missing: string }>`
      with system as materialized (
        select asset, id from ledger_accounts where user_id is null and kind = ${from}
      ),
      c as materialized (
        select c.key, c.asset, c.amount, c.reference, (select s.id from system s where s.asset = c.asset) as debit_id,
          ${userAccountOf('c')} as credit_id
        from (${credits}) c
      ),
      made as (
        insert into ledger_transfers (idempotency_key, type, asset, debit_account_id, credit_account_id, amount, reference)
        select key, ${type}, asset, debit_id, credit_id, amount, reference from c
        where debit_id is not null and credit_id is not null
        on conflict (idempotency_key) do nothing
        returning debit_account_id, credit_account_id, amount
      ),
      moves as (
        select id, sum(delta) as delta from (
          select credit_account_id as id, amount as delta from made
          union all
          select debit_account_id, -amount from made
        ) m group by id
        order by id
      ),
      moved as (
        update ledger_accounts a set balance = a.balance + moves.delta
        from moves
        where a.id = moves.id
      )
      select (select count(*) from made) as count, (select coalesce(sum(amount), 0) from made) as amount,
        (select count(*) from c where debit_id is null or credit_id is null) as missing`.execute(trx)
    return {
      count: Number(rows[0]?.count ?? 0),
      amount: BigInt(rows[0]?.amount ?? 0),
      missing: Number(rows[0]?.missing),
    }
  }
  const made = await transfers()
  if (made.missing > 0) {
    // In user id order: two jobs creating overlapping accounts wait on each other in one order.
    await sql`
      insert into ledger_accounts (user_id, asset, kind)
      select null, a.asset, ${from} from (select distinct asset from (${credits}) c) a where ${systemAccountOf('a')} is null
      union all
      select u.user_id, u.asset, 'available' from (select distinct user_id, asset from (${credits}) c) u
      where ${userAccountOf('u')} is null
      order by 1 nulls first, 2
      on conflict do nothing`.execute(trx)
    const rest = await transfers()
    if (rest.missing > 0) throw new Error(`ledger: ${rest.missing} credits still lack an account`)
    made.count += rest.count
    made.amount += rest.amount
  }
  await restore()
  return { count: made.count, amount: made.amount }
}

/**
 * Turns the planner's `enable_<name>` settings off for the rest of the transaction; the function it returns puts back
 * the values they had.
 */
async function planWithout(trx: Transaction<DB>, names: string[]): Promise<() => Promise<void>> {
  const settings = names.map((name) => `enable_${name}`)
  const { rows } = await sql<Record<string, string>>`
    select ${sql.join(settings.map((s) => sql`current_setting(${s}) as ${sql.ref(s)}`))},
      ${sql.join(settings.map((s) => sql`set_config(${s}, 'off', true)`))}`.execute(trx)
  const before = rows[0] ?? {}
  return async () => {
    await sql`select ${sql.join(settings.map((s) => sql`set_config(${s}, ${before[s] ?? 'on'}, true)`))}`.execute(trx)
  }
}
