// The one double-entry ledger (docs/design.md#the-ledger): every money movement is a transfer that debits one account
// and credits another of the same asset, under a unique idempotency key. Amounts are bigint base units in TypeScript
// and numeric(38,0) in SQL, written as decimal strings so no floating point ever touches them.
// Inside a transaction pass its `trx` to every function here, never the `db`: PGlite is one session that a transaction
// holds until it ends, so a query on `db` from inside it would wait forever.
import type { LedgerEntry, LedgerType } from '@solpledge/contract'
import { CompiledQuery, sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import { prepared } from '../../db/pg-driver.ts'
import type { DB } from '../../db/schema.ts'
import { invalid, refuse } from '../../lib/app-error.ts'
import { noteLedgerWrite } from '../../lib/money-probe.ts'

export type UserAccountKind = 'available' | 'locked'

/** The user's account of `asset` and `kind`, created when missing. */
export function userAccount(db: Database, userId: string, asset: string, kind: UserAccountKind): Promise<string> {
  return account(db, userId, asset, kind)
}

/** The system account `name` ('chain', 'fees', 'emission', …) of `asset`, created when missing. */
export function systemAccount(db: Database, asset: string, name: string): Promise<string> {
  return account(db, null, asset, name)
}

async function account(db: Database, userId: string | null, asset: string, kind: string): Promise<string> {
  const find = () =>
    db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('user_id', userId === null ? 'is' : '=', userId)
      .where('asset', '=', asset)
      .where('kind', '=', kind)
      .executeTakeFirst()
  const existing = await find()
  if (existing) return existing.id
  // When another transaction creates the same account meanwhile, `on conflict` waits for it to end and does nothing;
  // the next statement sees its row (read committed takes a new snapshot per statement).
  const inserted = await db
    .insertInto('ledger_accounts')
    .values({ user_id: userId, asset, kind })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst()
  const id = inserted?.id ?? (await find())?.id
  if (id === undefined) throw new Error(`ledger: could not create account ${userId ?? 'system'}/${asset}/${kind}`)
  return id
}

export interface TransferInput {
  /** Account id the amount leaves. */
  debit: string
  /** Account id the amount enters. */
  credit: string
  asset: string
  /** Base units, > 0. */
  amount: bigint
  /** What the movement is: one of the contract's LEDGER_TYPES, each labelled in the web app. */
  type: LedgerType
  /** Idempotency key: the same key always means the same transfer, made at most once. */
  key: string
  /** What it belongs to, e.g. 'intent:12'. */
  reference?: string
}

/**
 * Moves `amount` from `debit` to `credit`, at most once per key. Retrying a key with the same debit, credit, asset,
 * amount and type returns the first transfer's id with `created: false` and changes nothing; reusing a key for
 * different content is a programming error and throws.
 *
 * Runs inside the caller's `db.transaction()`, which must roll back when this throws: a refused transfer (insufficient
 * balance) has already written its row, and PostgreSQL accepts no further statement in that transaction. Money
 * operations are all-or-nothing. A transaction that makes several transfers may deadlock with another touching the
 * same accounts in the opposite order; PostgreSQL then aborts one of them (SQLSTATE 40P01) and it can be retried.
 */
export async function transfer(trx: Transaction<DB>, input: TransferInput): Promise<{ id: string; created: boolean }> {
  if (input.amount <= 0n) throw invalid('error.invalidParams', { detail: 'amount' })
  noteLedgerWrite('transfer')
  // One statement: the function of migration 0029 inserts the transfer and moves both balances (lower account id
  // first, so concurrent transfers between the same accounts never deadlock), or returns the stored transfer of the
  // key; its `commit_xid` is the transaction's id, kept by the tracked connection for its COMMIT (db/transient.ts).
  let row: TransferRow | undefined
  try {
    const { rows } = await trx.executeQuery<TransferRow>(
      CompiledQuery.raw(TRANSFER, [
        input.key,
        input.type,
        input.asset,
        input.debit,
        input.credit,
        input.amount.toString(),
        input.reference ?? null,
      ]),
    )
    row = rows[0]
  } catch (error) {
    if (isNegativeUserBalance(error)) throw refuse('common.insufficientBalance')
    // Either account is missing or of another asset: a programming error, as a thrown Error.
    if ((error as { code?: unknown } | null)?.code === 'LA001') throw new Error((error as Error).message)
    throw error
  }
  if (!row) throw new Error(`ledger: transfer ${input.key} returned nothing`)
  if (!row.created && !sameTransfer(row, input))
    throw new Error(`ledger: idempotency key ${input.key} reused for a different transfer`)
  return { id: row.id, created: row.created }
}

/**
 * The call of `transfer`, compiled once (a query builder, or a `sql` template, would build and compile the same text
 * again for every transfer) and, on PostgreSQL, a prepared statement: parsed and planned once per connection.
 */
const TRANSFER = prepared(
  'ledger_transfer',
  'select * from ledger_transfer($1, $2, $3, $4::bigint, $5::bigint, $6::numeric, $7::text)',
)

/** What `ledger_transfer` returns: the transfer made, or the one stored under the key (`created` false). */
interface TransferRow {
  id: string
  created: boolean
  debit_account_id: string
  credit_account_id: string
  asset: string
  amount: string
  type: string
  commit_xid: string | null
}

/** A stored transfer is the one `input` describes (retrying its key changes nothing). */
export function sameTransfer(
  prior: { debit_account_id: string; credit_account_id: string; asset: string; amount: string; type: string },
  input: TransferInput,
): boolean {
  return (
    BigInt(prior.debit_account_id) === BigInt(input.debit) &&
    BigInt(prior.credit_account_id) === BigInt(input.credit) &&
    prior.asset === input.asset &&
    BigInt(prior.amount) === input.amount &&
    prior.type === input.type
  )
}

/** A user account would go below zero: the CHECK constraint of the migration, on PostgreSQL and PGlite alike. */
export function isNegativeUserBalance(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null
  return e?.code === '23514' && e.constraint === 'ledger_accounts_user_balance_nonnegative'
}

export interface Balance {
  available: bigint
  locked: bigint
}

/** The user's balances of every asset (zero where the user has no account), in the assets' display order. */
export async function balances(db: Database, userId: string): Promise<Record<string, Balance>> {
  const rows = await db
    .selectFrom('assets')
    .leftJoin('ledger_accounts as a', (join) => join.onRef('a.asset', '=', 'assets.code').on('a.user_id', '=', userId))
    .select(['assets.code', 'a.kind', 'a.balance'])
    .orderBy('assets.sort')
    .orderBy('assets.code')
    .execute()
  const result: Record<string, Balance> = {}
  for (const row of rows) {
    const balance = result[row.code] ?? { available: 0n, locked: 0n }
    result[row.code] = balance
    if (row.kind === 'available' || row.kind === 'locked') balance[row.kind] = BigInt(row.balance ?? 0)
  }
  return result
}

/**
 * One movement on one of the user's accounts, in the contract's LedgerEntry form: `account` is the kind of the user's
 * account it touched and `amount` is signed from the user's point of view (positive: it entered that account,
 * negative: it left), `direction` says the same in words. A transfer between two of the user's own accounts
 * (available → locked) gives two entries with the same transfer id: 'out' of one and 'in' to the other.
 */
export type StatementEntry = LedgerEntry & { direction: 'in' | 'out' }

export interface StatementQuery {
  userId: string
  asset?: string | undefined
  type?: LedgerType | undefined
  /** 1-based. */
  page: number
  limit: number
}

/** The day a settlement transfer pays for, from its reference 'settlement:YYYY-MM-DD' (modules/settlement). */
const settlementDay = (reference: string | null) =>
  /^settlement:(\d{4}-\d{2}-\d{2})$/.exec(reference ?? '')?.[1] ?? null

/** The user's movements, newest first: one page of them and how many there are in all. */
export async function statement(
  db: Database,
  query: StatementQuery,
): Promise<{ total: number; list: StatementEntry[] }> {
  const side = (direction: 'in' | 'out') =>
    db
      .selectFrom('ledger_transfers as t')
      .innerJoin('ledger_accounts as a', 'a.id', direction === 'in' ? 't.credit_account_id' : 't.debit_account_id')
      .select(['t.id', 't.asset', 't.type', 't.amount', 't.reference', 't.created_at', 'a.kind'])
      .select(sql.lit(direction).as('direction'))
      .where('a.user_id', '=', query.userId)
      .$if(query.asset !== undefined, (qb) => qb.where('a.asset', '=', query.asset as string))
      .$if(query.type !== undefined, (qb) => qb.where('t.type', '=', query.type as string))
  const movements = () => side('in').unionAll(side('out')).as('m')
  const [rows, count] = await Promise.all([
    db
      .selectFrom(movements())
      .selectAll()
      .orderBy('id', 'desc')
      .orderBy('direction')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    db
      .selectFrom(movements())
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return {
    total: Number(count.n),
    list: rows.map((row) => ({
      id: row.id,
      coin: row.asset,
      type: row.type as LedgerType,
      amount: row.direction === 'in' ? row.amount : `-${row.amount}`,
      account: row.kind as UserAccountKind,
      direction: row.direction as 'in' | 'out',
      reference: row.reference,
      day: settlementDay(row.reference),
      created_at: row.created_at.toISOString(),
    })),
  }
}

/** A movement of the user's full statement: the entry and its account's balance after it (base units). */
export type BalancedEntry = StatementEntry & { balance_after: string }

/**
 * All the user's movements, newest first, each with its account's balance after it, read page by page (keyset on the
 * transfer and its side, so a transfer made meanwhile is not met twice). The running balance counts every entry of the
 * account; the type filter only chooses the rows shown.
 */
export async function* fullStatement(
  db: Database,
  query: Omit<StatementQuery, 'page' | 'limit'> & { pageSize: number },
): AsyncGenerator<BalancedEntry> {
  const { userId, asset, type, pageSize } = query
  const byAsset = asset === undefined ? sql`` : sql`and a.asset = ${asset}`
  let after: { id: string; direction: string } | null = null
  for (;;) {
    const cursor: ReturnType<typeof sql> = after
      ? sql`and (id < ${after.id} or (id = ${after.id} and direction > ${after.direction}))`
      : sql``
    const { rows } = await sql<{
      id: string
      asset: string
      type: string
      amount: string
      reference: string | null
      created_at: Date
      kind: string
      direction: 'in' | 'out'
      balance_after: string
    }>`
      with m as (
        select t.id, t.asset, t.type, t.amount, t.reference, t.created_at, a.kind, a.id as account_id,
               'in' as direction, t.amount as signed
          from ledger_transfers t join ledger_accounts a on a.id = t.credit_account_id
         where a.user_id = ${userId} ${byAsset}
        union all
        select t.id, t.asset, t.type, t.amount, t.reference, t.created_at, a.kind, a.id, 'out', -t.amount
          from ledger_transfers t join ledger_accounts a on a.id = t.debit_account_id
         where a.user_id = ${userId} ${byAsset}
      ), balanced as (
        select m.*, sum(signed) over (partition by account_id order by id rows unbounded preceding) as balance_after
          from m
      )
      select id, asset, type, amount, reference, created_at, kind, direction, balance_after from balanced
       where true ${type === undefined ? sql`` : sql`and type = ${type}`} ${cursor}
       order by id desc, direction
       limit ${pageSize}`.execute(db)
    for (const row of rows)
      yield {
        id: String(row.id),
        coin: row.asset,
        type: row.type as LedgerType,
        amount: row.direction === 'in' ? String(row.amount) : `-${row.amount}`,
        account: row.kind as UserAccountKind,
        direction: row.direction,
        reference: row.reference,
        day: settlementDay(row.reference),
        created_at: new Date(row.created_at).toISOString(),
        balance_after: String(row.balance_after),
      }
    const last = rows.at(-1)
    if (!last || rows.length < pageSize) return
    after = { id: String(last.id), direction: last.direction }
  }
}

/** What the users hold of `asset` (available + locked); the solvency report owes more (modules/liabilities/owed.ts). */
export async function totals(db: Database, asset: string): Promise<bigint> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select(sql<string>`coalesce(sum(balance), 0)`.as('total'))
    .where('asset', '=', asset)
    .where('user_id', 'is not', null)
    .executeTakeFirstOrThrow()
  return BigInt(row.total)
}

/**
 * Checks the books; returns the violations found (empty when sound): per asset the balances of all accounts sum to
 * zero (every transfer moves an amount from one account to another and accounts start at zero), every balance equals
 * its credits minus its debits, every transfer joins two existing accounts of its asset, and no user account is
 * negative.
 */
export async function checkInvariants(db: Database): Promise<string[]> {
  const [sums, replay, misplaced, negative] = await Promise.all([
    sql<{ asset: string; total: string }>`
      select asset, sum(balance) as total from ledger_accounts group by asset having sum(balance) <> 0`.execute(db),
    sql<{ id: string; balance: string; replayed: string }>`
      select a.id, a.balance, coalesce(c.total, 0) - coalesce(d.total, 0) as replayed
      from ledger_accounts a
      left join (select credit_account_id as id, sum(amount) as total from ledger_transfers group by 1) c on c.id = a.id
      left join (select debit_account_id as id, sum(amount) as total from ledger_transfers group by 1) d on d.id = a.id
      where a.balance <> coalesce(c.total, 0) - coalesce(d.total, 0)`.execute(db),
    sql<{ id: string }>`
      select t.id from ledger_transfers t
      left join ledger_accounts d on d.id = t.debit_account_id
      left join ledger_accounts c on c.id = t.credit_account_id
      where d.asset is distinct from t.asset or c.asset is distinct from t.asset`.execute(db),
    sql<{ id: string; balance: string }>`
      select id, balance from ledger_accounts where user_id is not null and balance < 0`.execute(db),
  ])
  return [
    ...sums.rows.map((r) => `asset ${r.asset}: balances sum to ${r.total}, not 0`),
    ...replay.rows.map((r) => `account ${r.id}: balance ${r.balance}, transfers give ${r.replayed}`),
    ...misplaced.rows.map((r) => `transfer ${r.id}: an account is missing or not of its asset`),
    ...negative.rows.map((r) => `user account ${r.id}: negative balance ${r.balance}`),
  ]
}
