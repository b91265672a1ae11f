import { type Kysely, sql } from 'kysely'

/**
 * The daily settlement pays each user once a day (docs/settlement.md): its phases write output records only, and a
 * last phase credits each user the day's sum of their records per asset in one ledger transfer.
 *
 * - `output_records` is keyed by what makes a record unique, `(day, user_id, type, parent_id)`, as its primary key:
 *   one index that keeps a record from being written twice, finds a user's records of a day (the payment phase, the
 *   home page's output of the day) and takes the place of the former unique `(day, type, parent_id, user_id)`, the
 *   `(user_id, day)` index and the primary key on `id` (which stays as a column: the records' order and id in the API).
 *   The position's records are still found by `(type, parent_id, id)`.
 * - `referral_accruals` goes: the referral pass writes the rewards' output records directly.
 * - The keys the settlement writes by the million compare as bytes (collation "C"): `ledger_transfers.idempotency_key`
 *   and `output_records.type`. They are identifiers, so byte order is the right order anyway, and a locale's
 *   comparison function on every index step cost a tenth of the payment phase.
 * - `ledger_accounts` keeps its pages half empty (fillfactor 50), like `user_power`: the settlement updates every
 *   paid account once a day, and a balance update that finds room on its page is a HOT update (no new index entries).
 *   This applies to pages written from now on; `VACUUM FULL ledger_accounts` rewrites the existing ones.
 *
 * A run that started with the previous version paid per record under other keys: finishing it with this version would
 * pay its earlier records a second time, so this migration refuses to run while a settlement run is unfinished.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ day: string }>`
    select day::text as day from settlement_runs where status = 'running' order by day`.execute(db)
  if (rows.length > 0)
    throw new Error(
      `the settlement of ${rows.map((r) => r.day).join(', ')} is unfinished: finish it with the previous version ` +
        '(npm run settle) before upgrading',
    )
  await sql`alter table output_records drop constraint output_records_pkey`.execute(db)
  await db.schema.dropIndex('output_records_once').execute()
  await db.schema.dropIndex('output_records_user_idx').execute()
  await sql`alter table output_records alter column type type text collate "C"`.execute(db)
  await sql`
    alter table output_records add constraint output_records_pkey primary key (day, user_id, type, parent_id)`.execute(
    db,
  )
  await db.schema.dropTable('referral_accruals').execute()
  await sql`alter table ledger_accounts set (fillfactor = 50)`.execute(db)
  await sql`alter table ledger_transfers alter column idempotency_key type text collate "C"`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_transfers alter column idempotency_key type text collate "default"`.execute(db)
  await sql`alter table ledger_accounts reset (fillfactor)`.execute(db)
  await db.schema
    .createTable('referral_accruals')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('amount', sql`numeric(38, 0)`, (c) => c.notNull().check(sql`amount > 0`))
    .addPrimaryKeyConstraint('referral_accruals_pk', ['day', 'user_id'])
    .execute()
  await sql`alter table output_records drop constraint output_records_pkey`.execute(db)
  await sql`alter table output_records alter column type type text collate "default"`.execute(db)
  await sql`alter table output_records add constraint output_records_pkey primary key (id)`.execute(db)
  await db.schema
    .createIndex('output_records_once')
    .unique()
    .on('output_records')
    .columns(['day', 'type', 'parent_id', 'user_id'])
    .execute()
  await db.schema.createIndex('output_records_user_idx').on('output_records').columns(['user_id', 'day']).execute()
}
