import { type Kysely, sql } from 'kysely'

/**
 * Four eyes that one admin cannot bypass (docs/admin.md): once two admins exist, every manual adjustment
 * needs a second admin (the per-asset adjustment threshold goes), and changes that weaken the rules (allow-list
 * additions, raised roles, raised review thresholds) wait in admin_changes for a different admin's approval.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assets').dropColumn('adjust_dual_threshold').execute()
  // The settings' history no longer names the dropped setting.
  await sql`update asset_versions set before = before - 'adjust_dual_threshold', value = value - 'adjust_dual_threshold'`.execute(
    db,
  )

  // Every change of the allow-list and of the assets' settings: applied at once when one admin may make it, else
  // pending until a different admin approves (or anyone rejects); stale when what it was made from changed.
  await db.schema
    .createTable('admin_changes')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    // What to apply (the request's body) and the target's state it was made from.
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('approvals_needed', 'integer', (c) => c.notNull())
    .addColumn('proposed_by', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decision_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('decided_at', 'timestamptz')
    .addCheckConstraint('admin_changes_kind', sql`kind in ('asset.save', 'admin.save', 'admin.remove')`)
    .addCheckConstraint('admin_changes_status', sql`status in ('pending', 'applied', 'rejected', 'stale')`)
    .addCheckConstraint('admin_changes_approvals', sql`approvals_needed in (1, 2)`)
    // The two-admin rule in the schema: a second decision is never the proposer's.
    .addCheckConstraint('admin_changes_two_admins', sql`decided_by is null or decided_by <> proposed_by`)
    .addCheckConstraint(
      'admin_changes_applied_by_second',
      sql`not (status = 'applied' and approvals_needed = 2 and decided_by is null)`,
    )
    .execute()
  await db.schema.createIndex('admin_changes_status_idx').on('admin_changes').columns(['status', 'id']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('admin_changes').execute()
  await sql`alter table assets add column adjust_dual_threshold numeric(38, 0)`.execute(db)
}
