// Set-based ledger writes for work that moves money for many accounts at once (the daily settlement's credits, a batch
// of trades): the same double-entry rules as `transfer` in service.ts — one transfer per movement under a unique
// idempotency key, balances moved in the same transaction, user accounts never negative — in a fixed number of
// statements whatever the number of transfers.
import type { LedgerType } from '@solpledge/contract'
import { type RawBuilder, sql, type Transaction } from 'kysely'
import { liveBucket } from '../../db/migrations/0033-live-unheard.ts'
import { planWithout } from '../../db/planner.ts'
import type { DB } from '../../db/schema.ts'
import { invalid, refuse } from '../../lib/app-error.ts'
import { noteLedgerWrite } from '../../lib/money-probe.ts'
import { isNegativeUserBalance, sameTransfer, type TransferInput } from './service.ts'

export interface BulkCredit {
  /**
   * The credits: a query selecting `user_id bigint, asset text, amount numeric, key text, reference text`, one row per
   * transfer, amount > 0, keys unique. It is evaluated several times inside the transaction, so it must read rows the
   * transaction itself controls (e.g. output records it has just written) and give the same rows each time.
   */
  credits: RawBuilder<unknown>
  /** The system account each amount leaves, per asset ('emission', …). */
  from: string
  /** The transfers' type ('settlement', …). */
  type: LedgerType
  /**
   * Publish the users' new balances to the live channel in the payment statement itself, numbered (migration
   * 0031-live-numbered `live_publish_numbered`), instead of one outbox row per balance through the balance trigger,
   * numbered at COMMIT, and only those of users some instance listens to (migration 0033-live-unheard). Their topics
   * then stay locked until COMMIT: only for a caller that publishes nothing else in the transaction and waits for no
   * other lock after this call (the settlement's payment batch, which then only updates its run row, locked before).
   */
  publishNumbered?: boolean
}

/**
 * Moves each credit's amount from the system account `from` of its asset to the user's available account of that
 * asset, at most once per key: a key that already exists is skipped (its transfer was made before).
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
export async function creditUsers(trx: Transaction<DB>, input: BulkCredit): Promise<void> {
  const { credits, from, type, publishNumbered = false } = input
  noteLedgerWrite('creditUsers')
  // A batch touches thousands of perhaps millions of accounts: accounts are found by per-row index lookups (scalar
  // subqueries, nested-loop joins and index scans only, for these statements), never by a hash or merge join or a
  // scan that would read every account once the planner believes the batch is large. Index scans of the primary key
  // and a sorted outer side also keep the balance updates in account id order. Sums are sorted aggregates: hash tables
  // of numeric sums cost a quarter of a payment batch more.
  const restore = await planWithout(trx, ['hashjoin', 'mergejoin', 'seqscan', 'bitmapscan', 'hashagg'])
  // The balance triggers stand aside while this statement publishes the balances itself (migration 0031), of the users
  // some instance listens to: the topics' buckets this transaction holds from here on keep the others unheard until it
  // ends (migration 0033-live-unheard), and the statement reads who listens after taking them (its own snapshot).
  let held: boolean[] = []
  if (publishNumbered) {
    const { rows } = await sql<{ held: boolean[] }>`
      select set_config('live.balance', 'off', true), live_buckets() as held`.execute(trx)
    held = rows[0]?.held ?? []
  }
  const userAccountOf = (row: string) =>
    sql.raw(
      `(select x.id from ledger_accounts x where x.user_id = ${row}.user_id and x.asset = ${row}.asset and x.kind = 'available')`,
    )
  const systemAccountOf = (row: string) =>
    sql`(select x.id from ledger_accounts x where x.user_id is null and x.asset = ${sql.raw(row)}.asset and x.kind = ${from})`
  /** Makes the transfers whose accounts exist; returns how many credits lack an account. */
  const transfers = async () => {
    const { rows } = await sql<{ missing: string }>`
      with system as materialized (
        select asset, id from ledger_accounts where user_id is null and kind = ${from}
      ),
      c as materialized (
        select c.key, c.asset, c.amount, c.reference, (select s.id from system s where s.asset = c.asset) as debit_id,
          ${userAccountOf('c')} as credit_id
        from (${credits}) c
      ),
      -- Nothing when an account is missing: the accounts are created, then the statement runs again (no balance
      -- moved, nor topic locked, before that insert's possible wait for a concurrent one).
      made as (
        insert into ledger_transfers (idempotency_key, type, asset, debit_account_id, credit_account_id, amount, reference)
        select key, ${type}, asset, debit_id, credit_id, amount, reference from c
        where not exists (select from c m where m.debit_id is null or m.credit_id is null)
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
        returning a.id, a.user_id, a.asset, a.kind, a.balance
      )
      select count(*) as missing${
        publishNumbered
          ? // After every balance of the batch is updated (the aggregate reads them all), by topic then account.
            sql`, (
            select live_publish_numbered(array_agg(m.topic order by m.topic, m.id), array_agg(m.payload order by m.topic, m.id))
            from (
              select 'user:' || user_id as topic, id, jsonb_build_object(
                'kind', 'balance', 'coin', asset, 'account', kind, 'balance', balance::text) as payload
              from moved where user_id is not null
                and (not (${held}::boolean[])[${liveBucket(sql<string>`'user:' || user_id`)} + 1]
                  or exists (select 1 from live_topics t where t.topic = 'user:' || user_id and t.listeners > 0))
            ) m
          ) as published`
          : sql``
      }
      from c where debit_id is null or credit_id is null`.execute(trx)
    return Number(rows[0]?.missing)
  }
  if ((await transfers()) > 0) {
    // In user id order: two jobs creating overlapping accounts wait on each other in one order.
    await sql`
      insert into ledger_accounts (user_id, asset, kind)
      select null, a.asset, ${from} from (select distinct asset from (${credits}) c) a where ${systemAccountOf('a')} is null
      union all
      select u.user_id, u.asset, 'available' from (select distinct user_id, asset from (${credits}) c) u
      where ${userAccountOf('u')} is null
      order by 1 nulls first, 2
      on conflict do nothing`.execute(trx)
    const missing = await transfers()
    if (missing > 0) throw new Error(`ledger: ${missing} credits still lack an account`)
  }
  if (publishNumbered) await sql`select set_config('live.balance', '', true)`.execute(trx)
  await restore()
}

/** An account wanted by `accountIds`: a user's available or locked account, or a system account (userId null). */
export interface AccountSpec {
  userId: string | null
  asset: string
  kind: string
}

export const accountKey = (spec: AccountSpec) => `${spec.userId ?? ''}/${spec.asset}/${spec.kind}`

/**
 * The ids of many accounts at once (the same accounts `userAccount` and `systemAccount` give), created when missing,
 * in one statement whatever their number (two when another transaction creates one of them at the same moment). The
 * map is keyed by `accountKey`.
 */
export async function accountIds(trx: Transaction<DB>, specs: AccountSpec[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>()
  const column = (specs: AccountSpec[], key: keyof AccountSpec) => sql.val(specs.map((spec) => spec[key]))
  const keep = (rows: { id: string; user_id: string | null; asset: string; kind: string }[]) => {
    for (const row of rows) ids.set(accountKey({ userId: row.user_id, asset: row.asset, kind: row.kind }), row.id)
  }
  const find = async (list: AccountSpec[]) => {
    const users = list.filter((spec) => spec.userId !== null)
    const system = list.filter((spec) => spec.userId === null)
    // Users' and system accounts apart: each branch is an index lookup per wanted account.
    const { rows } = await sql<{ id: string; user_id: string | null; asset: string; kind: string }>`
      select a.id, a.user_id, a.asset, a.kind
      from unnest(${column(users, 'userId')}::bigint[], ${column(users, 'asset')}::text[],
        ${column(users, 'kind')}::text[]) as w(user_id, asset, kind)
      join ledger_accounts a on a.user_id = w.user_id and a.asset = w.asset and a.kind = w.kind
      union all
      select a.id, null, a.asset, a.kind
      from unnest(${column(system, 'asset')}::text[], ${column(system, 'kind')}::text[]) as w(asset, kind)
      join ledger_accounts a on a.user_id is null and a.asset = w.asset and a.kind = w.kind`.execute(trx)
    keep(rows)
  }
  const wanted = [...new Map(specs.map((spec) => [accountKey(spec), spec])).values()]
  if (wanted.length === 0) return ids
  // Those found, and those missing created in the same statement: in (user, asset, kind) order, so two transactions
  // creating overlapping accounts wait in one order. An account another transaction creates meanwhile wins the
  // conflict (nothing returned for it) and the second look below finds it.
  const { rows } = await sql<{ id: string; user_id: string | null; asset: string; kind: string }>`
    with w as materialized (
      select w.user_id, w.asset, w.kind, case when w.user_id is null
          then (select a.id from ledger_accounts a where a.user_id is null and a.asset = w.asset and a.kind = w.kind)
          else (select a.id from ledger_accounts a where a.user_id = w.user_id and a.asset = w.asset and a.kind = w.kind)
        end as id
      from unnest(${column(wanted, 'userId')}::bigint[], ${column(wanted, 'asset')}::text[],
        ${column(wanted, 'kind')}::text[]) as w(user_id, asset, kind)
    ),
    made as (
      insert into ledger_accounts (user_id, asset, kind)
      select user_id, asset, kind from w where id is null
      order by 1 nulls first, 2, 3
      on conflict do nothing
      returning id, user_id, asset, kind
    )
    select id, user_id, asset, kind from w where id is not null
    union all
    select id, user_id, asset, kind from made`.execute(trx)
  keep(rows)
  const missing = wanted.filter((spec) => !ids.has(accountKey(spec)))
  if (missing.length === 0) return ids
  await find(missing)
  const lost = missing.find((spec) => !ids.has(accountKey(spec)))
  if (lost) throw new Error(`ledger: could not create account ${accountKey(lost)}`)
  return ids
}

/**
 * The query that locks the accounts `transfers` touch, in ascending id order (the order `transfer` locks in): what
 * `transferMany` runs first, unless its caller ran it already (`locked`).
 */
export function lockAccounts(transfers: TransferInput[]) {
  const accounts = [...new Set(transfers.flatMap((t) => [BigInt(t.debit), BigInt(t.credit)]))]
    .sort((a, b) => (a < b ? -1 : 1))
    .map(String)
  return sql<{
    id: string
  }>`select id from ledger_accounts where id = any(${sql.val(accounts)}::bigint[]) order by id for update`
}

/**
 * Many transfers in a fixed number of statements, with `transfer`'s rules: each at most once per idempotency key (a
 * key already stored with the same content is skipped, with different content it throws), balances moved in the same
 * transaction, user accounts never negative (a refusal 'common.insufficientBalance' — the caller's transaction must
 * then roll back). The touched accounts are locked in ascending id order first, the order `transfer` locks in.
 * Balances move by each account's net change: a user account may be debited before it is credited within the list.
 */
export async function transferMany(
  trx: Transaction<DB>,
  transfers: TransferInput[],
  options: {
    /**
     * The caller has locked the transfers' accounts already, in this transaction, by a statement before this call that
     * ran `lockAccounts(transfers)` (as a CTE it references, say): one round trip less. Not in the same statement as
     * anything that reads their balances: a statement's snapshot is taken before it waits for a lock, and an update
     * it makes would start from the balance before the wait.
     */
    locked?: boolean
  } = {},
): Promise<void> {
  if (transfers.length === 0) return
  for (const t of transfers) if (t.amount <= 0n) throw invalid('error.invalidParams', { detail: 'amount' })
  noteLedgerWrite('transferMany')
  if (!options.locked) await lockAccounts(transfers).execute(trx)
  const column = <K extends keyof TransferInput>(key: K) => sql.val(transfers.map((t) => t[key]?.toString() ?? null))
  let result: { made: string; moves: string; moved: string } | undefined
  try {
    const { rows } = await sql<{ made: string; moves: string; moved: string }>`
      with input as (
        select * from unnest(${column('key')}::text[], ${column('type')}::text[], ${column('asset')}::text[],
          ${column('debit')}::bigint[], ${column('credit')}::bigint[], ${column('amount')}::numeric[],
          ${column('reference')}::text[]) as i(key, type, asset, debit, credit, amount, reference)
      ),
      made as (
        insert into ledger_transfers (idempotency_key, type, asset, debit_account_id, credit_account_id, amount, reference)
        select key, type, asset, debit, credit, amount, reference from input
        on conflict (idempotency_key) do nothing
        returning asset, debit_account_id, credit_account_id, amount
      ),
      moves as (
        select id, asset, sum(delta) as delta from (
          select credit_account_id as id, asset, amount as delta from made
          union all
          select debit_account_id, asset, -amount from made
        ) m group by id, asset
      ),
      moved as (
        update ledger_accounts a set balance = a.balance + moves.delta
        from moves
        where a.id = moves.id and a.asset = moves.asset
        returning a.id
      )
      select (select count(*) from made) as made, (select count(*) from moves) as moves,
        (select count(*) from moved) as moved`.execute(trx)
    result = rows[0]
  } catch (error) {
    if (isNegativeUserBalance(error)) throw refuse('common.insufficientBalance')
    throw error
  }
  if (result?.moves !== result?.moved) throw new Error('ledger: a transfer names an account not of its asset')
  if (Number(result?.made) < transfers.length) {
    // Keys seen before: each must be the same transfer.
    const prior = await trx
      .selectFrom('ledger_transfers')
      .select(['idempotency_key', 'debit_account_id', 'credit_account_id', 'asset', 'amount', 'type'])
      .where(
        'idempotency_key',
        'in',
        transfers.map((t) => t.key),
      )
      .execute()
    const byKey = new Map(prior.map((p) => [p.idempotency_key, p]))
    for (const t of transfers) {
      const p = byKey.get(t.key)
      if (!p || !sameTransfer(p, t)) throw new Error(`ledger: idempotency key ${t.key} reused for a different transfer`)
    }
  }
}
