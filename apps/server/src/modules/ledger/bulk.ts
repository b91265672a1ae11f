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
 * 1. Missing accounts (the users' available accounts, the system accounts) are created, `on conflict do nothing`.
 * 2. Every account touched is locked with `select … order by id for update`: ascending id order, the order
 *    `transfer` locks its two accounts in, so a bulk credit and concurrent transfers never wait on each other in a
 *    cycle.
 * 3. One statement inserts the transfers (`on conflict (idempotency_key) do nothing returning`) and applies to each
 *    account the sum of what it received or gave.
 *
 * Runs inside the caller's transaction (pass `trx`), which must roll back if this throws.
 */
export async function creditUsers(trx: Transaction<DB>, input: BulkCredit): Promise<{ count: number; amount: bigint }> {
  const { credits, from, type } = input
  // Creation in id order of users: two jobs creating overlapping accounts wait on each other in one order only.
  await sql`
    insert into ledger_accounts (user_id, asset, kind)
    select null, asset, ${from} from (select distinct asset from (${credits}) c) a
    union all
    select user_id, asset, 'available' from (select distinct user_id, asset from (${credits}) c) u
    where not exists (
      select 1 from ledger_accounts x where x.user_id = u.user_id and x.asset = u.asset and x.kind = 'available')
    order by 1 nulls first, 2
    on conflict do nothing`.execute(trx)
  await sql`
    select id from ledger_accounts
    where id in (
      select x.id from ledger_accounts x join (select distinct asset from (${credits}) c) a on a.asset = x.asset
      where x.user_id is null and x.kind = ${from}
      union all
      select x.id from ledger_accounts x
      join (select distinct user_id, asset from (${credits}) c) u on u.user_id = x.user_id and u.asset = x.asset
      where x.kind = 'available')
    order by id
    for update`.execute(trx)
  const { rows } = await sql<{ count: string; amount: string }>`
    with c as (${credits}),
    made as (
      insert into ledger_transfers (idempotency_key, type, asset, debit_account_id, credit_account_id, amount, reference)
      select c.key, ${type}, c.asset, s.id, u.id, c.amount, c.reference
      from c
      join ledger_accounts u on u.user_id = c.user_id and u.asset = c.asset and u.kind = 'available'
      join ledger_accounts s on s.user_id is null and s.asset = c.asset and s.kind = ${from}
      on conflict (idempotency_key) do nothing
      returning debit_account_id, credit_account_id, amount
    ),
    moves as (
      select id, sum(delta) as delta from (
        select credit_account_id as id, amount as delta from made
        union all
        select debit_account_id, -amount from made
      ) m group by id
    ),
    moved as (update ledger_accounts a set balance = a.balance + moves.delta from moves where a.id = moves.id)
    select (select count(*) from made) as count, (select coalesce(sum(amount), 0) from made) as amount`.execute(trx)
  const row = rows[0]
  return { count: Number(row?.count ?? 0), amount: BigInt(row?.amount ?? 0) }
}
