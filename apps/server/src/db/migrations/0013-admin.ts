import { type Kysely, sql } from 'kysely'

const money = sql`numeric(38, 0)`
const roleCheck = (column: string) => sql`${sql.ref(column)} in ('viewer', 'operator', 'admin')`

/**
 * The operator console (docs/admin.md): the allow-list of operator wallets and their sessions, the audit log,
 * versioned asset settings with the two-admin thresholds, withdrawal approvals, manual balance adjustments and the
 * jobs' heartbeats.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('admins')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('role', 'text', (c) => c.notNull())
    // 'config': ADMIN_ADDRESSES (set again at every start); 'console': added by an admin; 'local': the first sign-in
    // on the local chain.
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('added_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Removed operators keep their row (the audit log names them); they cannot sign in.
    .addColumn('removed_at', 'timestamptz')
    .addCheckConstraint('admins_role', roleCheck('role'))
    .addCheckConstraint('admins_source', sql`source in ('config', 'console', 'local')`)
    .execute()

  await db.schema
    .createTable('admin_sessions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    // Only the hash of the token is stored, as for user sessions.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('address', 'text', (c) => c.notNull().references('admins.address'))
    .addColumn('ip', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('admin_sessions_address_idx').on('admin_sessions').column('address').execute()

  // Append-only: nothing in the server updates or deletes a row of it.
  await db.schema
    .createTable('admin_audit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('ip', 'text')
    .addCheckConstraint('admin_audit_role', roleCheck('role'))
    .execute()
  await db.schema.createIndex('admin_audit_at_idx').on('admin_audit').columns(['at desc', 'id desc']).execute()
  await db.schema.createIndex('admin_audit_action_idx').on('admin_audit').columns(['action', 'id']).execute()
  await db.schema.createIndex('admin_audit_actor_idx').on('admin_audit').columns(['actor', 'id']).execute()
  await db.schema.createIndex('admin_audit_target_idx').on('admin_audit').columns(['target', 'id']).execute()

  // Asset settings: the current values stay in `assets` (read by every withdrawal), with a version number; each
  // change keeps its before and after values in asset_versions.
  await db.schema
    .alterTable('assets')
    .addColumn('dual_review_threshold', money)
    .addColumn('adjust_dual_threshold', money)
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo('seed'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createTable('asset_versions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('asset', 'text', (c) => c.notNull().references('assets.code'))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('before', 'jsonb', (c) => c.notNull())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('asset_versions_asset_version', ['asset', 'version'])
    .execute()

  // One row per operator approving a withdrawal: the primary key makes the same operator twice impossible.
  await db.schema
    .createTable('withdrawal_approvals')
    .addColumn('withdrawal_id', 'bigint', (c) => c.notNull().references('withdrawals.id'))
    .addColumn('admin', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('withdrawal_approvals_pk', ['withdrawal_id', 'admin'])
    .execute()

  await db.schema
    .createTable('adjustments')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull().references('assets.code'))
    // Signed: > 0 credits the user's available balance, < 0 debits it.
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount <> 0`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('approvals_needed', 'integer', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decision_reason', 'text')
    .addColumn('transfer_id', 'bigint', (c) => c.references('ledger_transfers.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('decided_at', 'timestamptz')
    .addCheckConstraint('adjustments_status', sql`status in ('pending', 'applied', 'rejected')`)
    .addCheckConstraint('adjustments_approvals', sql`approvals_needed in (1, 2)`)
    // The two-admin rule in the schema: the second decision is never the requester's.
    .addCheckConstraint('adjustments_two_admins', sql`decided_by is null or decided_by <> requested_by`)
    .addCheckConstraint('adjustments_applied', sql`(status = 'applied') = (transfer_id is not null)`)
    .execute()
  await db.schema.createIndex('adjustments_user_idx').on('adjustments').columns(['user_id', 'id']).execute()

  await db.schema
    .createTable('job_heartbeats')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_run_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_ok_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'job_heartbeats',
    'adjustments',
    'withdrawal_approvals',
    'asset_versions',
    'admin_audit',
    'admin_sessions',
    'admins',
  ])
    await db.schema.dropTable(table).execute()
  await db.schema
    .alterTable('assets')
    .dropColumn('dual_review_threshold')
    .dropColumn('adjust_dual_threshold')
    .dropColumn('version')
    .dropColumn('updated_by')
    .dropColumn('updated_at')
    .execute()
}
