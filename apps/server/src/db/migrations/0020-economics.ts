import { type Kysely, sql } from 'kysely'

/**
 * Economics under four eyes, with notice (docs/economics.md, docs/admin.md "Four eyes"): changes of the business
 * configuration and releases of held settlement days join the four-eyes changes; a change that raises payouts is
 * scheduled (decided, announced to users) and applies at effective_at, the end of its notice period, or is cancelled
 * before. Settlement days can be held by the circuit breaker (docs/settlement.md) until an admin releases them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('admin_changes')
    .addColumn('raises_payouts', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('effective_at', 'timestamptz')
    .execute()
  for (const name of ['admin_changes_kind', 'admin_changes_status', 'admin_changes_applied_by_second'])
    await sql`alter table admin_changes drop constraint ${sql.ref(name)}`.execute(db)
  await sql`alter table admin_changes add constraint admin_changes_kind
    check (kind in ('asset.save', 'admin.save', 'admin.remove', 'config.save', 'settlement.release'))`.execute(db)
  await sql`alter table admin_changes add constraint admin_changes_status
    check (status in ('pending', 'scheduled', 'applied', 'rejected', 'cancelled', 'stale'))`.execute(db)
  // Applied or scheduled after two approvals: the second admin is named.
  await sql`alter table admin_changes add constraint admin_changes_applied_by_second
    check (not (status in ('applied', 'scheduled') and approvals_needed = 2 and decided_by is null))`.execute(db)
  // A scheduled change knows when it applies.
  await sql`alter table admin_changes add constraint admin_changes_scheduled_at
    check (status <> 'scheduled' or effective_at is not null)`.execute(db)
  // The scheduled changes the job applies when due, and the notices users read.
  await sql`create index admin_changes_effective_idx on admin_changes (effective_at) where effective_at is not null`.execute(
    db,
  )

  await sql`alter table settlement_runs drop constraint settlement_runs_status`.execute(db)
  await sql`alter table settlement_runs add constraint settlement_runs_status
    check (status in ('running', 'held', 'done'))`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table settlement_runs drop constraint settlement_runs_status`.execute(db)
  await sql`alter table settlement_runs add constraint settlement_runs_status check (status in ('running', 'done'))`.execute(
    db,
  )
  await sql`drop index admin_changes_effective_idx`.execute(db)
  for (const name of [
    'admin_changes_kind',
    'admin_changes_status',
    'admin_changes_applied_by_second',
    'admin_changes_scheduled_at',
  ])
    await sql`alter table admin_changes drop constraint ${sql.ref(name)}`.execute(db)
  await sql`alter table admin_changes add constraint admin_changes_kind
    check (kind in ('asset.save', 'admin.save', 'admin.remove'))`.execute(db)
  await sql`alter table admin_changes add constraint admin_changes_status
    check (status in ('pending', 'applied', 'rejected', 'stale'))`.execute(db)
  await sql`alter table admin_changes add constraint admin_changes_applied_by_second
    check (not (status = 'applied' and approvals_needed = 2 and decided_by is null))`.execute(db)
  await db.schema.alterTable('admin_changes').dropColumn('raises_payouts').dropColumn('effective_at').execute()
}
