import { type Kysely, sql } from 'kysely'

/**
 * Proof of liabilities (docs/proof-of-liabilities-server.md): one row per snapshot, one row per leaf (a user with a
 * liability), and the tree's inner levels in chunks of consecutive nodes — no path is stored per user: a proof reads
 * the user's leaf, the sibling leaf and one slice of one chunk per level above.
 *
 * A node is stored as its hash (32 bytes) followed by its sums (16 bytes big-endian each, in the snapshot's asset
 * order): exactly the bytes the v1 format hashes. `nodes` is stored uncompressed out of line (STORAGE EXTERNAL: hashes
 * do not compress) so that `substring` reads only the TOAST pages of the slice it asks for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('liability_snapshots')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    // 'settlement:<day>' for the snapshot taken after a day's settlement (one per day, whatever the instances);
    // null for one an operator asked for.
    .addColumn('trigger', 'text', (c) => c.unique())
    .addColumn('taken_at', 'timestamptz', (c) => c.notNull())
    .addColumn('slot', 'bigint', (c) => c.notNull())
    // [{coin, decimals}] in the order of the amounts and sums.
    .addColumn('assets', 'jsonb', (c) => c.notNull())
    .addColumn('leaf_count', 'bigint', (c) => c.notNull())
    // Nodes per row of liability_nodes.
    .addColumn('chunk_nodes', 'integer', (c) => c.notNull())
    .addColumn('root_hash', 'text', (c) => c.notNull())
    // Decimal strings, in the assets' order.
    .addColumn('root_sums', 'jsonb', (c) => c.notNull())
    // [{coin, treasury, hot_wallet, holdings}] read at `slot`.
    .addColumn('reserves', 'jsonb', (c) => c.notNull())
    // The publication: the memo text, the address that signed it, and the prepared transaction (stored before it is
    // sent, as the withdrawal sender does: a retry resends these bytes and prepares new ones only once they expired).
    .addColumn('memo', 'text', (c) => c.notNull())
    .addColumn('signer', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('stored'))
    .addColumn('signature', 'text')
    .addColumn('wire_transaction', 'text')
    .addColumn('last_valid_block_height', sql`numeric(20, 0)`)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('published_at', 'timestamptz')
    // Set when the leaves and nodes were deleted (retention): the root stays, proofs are no longer served.
    .addColumn('purged_at', 'timestamptz')
    .addCheckConstraint('liability_snapshots_status', sql`status in ('stored', 'published')`)
    .execute()
  // One partition per snapshot (liability_leaves_<id>): a snapshot loads its leaves into a table of its own and the
  // indexes are built once it is full (a bulk build: the user index would otherwise take its rows in random order),
  // and the retention drops whole partitions.
  await sql`
    create table liability_leaves (
      snapshot_id bigint not null,
      leaf_index bigint not null,
      user_id bigint not null,
      salt bytea not null,
      -- The leaf node: its hash, then the user's amounts (16 bytes each).
      node bytea not null,
      constraint liability_leaves_pk primary key (snapshot_id, leaf_index),
      constraint liability_leaves_user unique (snapshot_id, user_id)
    ) partition by list (snapshot_id)`.execute(db)
  await db.schema
    .createTable('liability_nodes')
    .addColumn('snapshot_id', 'bigint', (c) => c.notNull())
    // 1 = the parents of the leaves, … up to the root's level.
    .addColumn('level', 'integer', (c) => c.notNull())
    // Nodes chunk × chunk_nodes … (chunk + 1) × chunk_nodes − 1 of the level, concatenated.
    .addColumn('chunk', 'integer', (c) => c.notNull())
    .addColumn('nodes', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('liability_nodes_pk', ['snapshot_id', 'level', 'chunk'])
    .execute()
  await sql`alter table liability_nodes alter column nodes set storage external`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['liability_nodes', 'liability_leaves', 'liability_snapshots'])
    await db.schema.dropTable(table).execute()
}
