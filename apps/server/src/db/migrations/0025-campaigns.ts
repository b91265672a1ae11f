import { type Kysely, sql } from 'kysely'

const money = sql`numeric(38, 0)`

/**
 * Campaigns (docs/admin.md#campaigns): a time-boxed event with its texts per language and its qualification tiers
 * (jsonb: an ordered list of { min_direct, min_fuel, reward }), the result fixed once after its end (one row per user
 * with figures, the tier reached or 0), and node rewards granted as adjustments that buy the node for the user when
 * applied: at most one per user and campaign.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('campaigns')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('tiers', 'jsonb', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Set when the result was fixed (campaign_results written), once, after ends_at.
    .addColumn('finalized_at', 'timestamptz')
    .addCheckConstraint('campaigns_dates', sql`ends_at > starts_at`)
    .execute()
  await db.schema.createIndex('campaigns_ends_idx').on('campaigns').column('ends_at').execute()

  await db.schema
    .createTable('campaign_translations')
    .addColumn('campaign_id', 'bigint', (c) => c.notNull().references('campaigns.id'))
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaign_translations_pk', ['campaign_id', 'lang'])
    .execute()

  await db.schema
    .createTable('campaign_results')
    .addColumn('campaign_id', 'bigint', (c) => c.notNull().references('campaigns.id'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('direct_count', 'integer', (c) => c.notNull())
    .addColumn('fuel', money, (c) => c.notNull())
    // The highest tier reached, 1-based; 0: none.
    .addColumn('tier', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaign_results_pk', ['campaign_id', 'user_id'])
    .execute()
  await db.schema
    .createIndex('campaign_results_qualified_idx')
    .on('campaign_results')
    .columns(['campaign_id', 'tier desc', 'fuel desc', 'user_id'])
    .where(sql.ref('tier'), '>', 0)
    .execute()

  await db.schema
    .alterTable('adjustments')
    .addColumn('node_level', 'text')
    .addColumn('campaign_id', 'bigint', (c) => c.references('campaigns.id'))
    .execute()
  await sql`alter table adjustments add constraint adjustments_node_reward
    check ((node_level is null) = (campaign_id is null) and (node_level is null or amount > 0))`.execute(db)
  // One reward per user and campaign, whatever became of it: granting again proposes nothing twice.
  await db.schema
    .createIndex('adjustments_campaign_user')
    .on('adjustments')
    .columns(['campaign_id', 'user_id'])
    .unique()
    .where(sql.ref('campaign_id'), 'is not', null)
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('adjustments_campaign_user').execute()
  await sql`alter table adjustments drop constraint adjustments_node_reward`.execute(db)
  await db.schema.alterTable('adjustments').dropColumn('campaign_id').dropColumn('node_level').execute()
  for (const table of ['campaign_results', 'campaign_translations', 'campaigns'])
    await db.schema.dropTable(table).execute()
}
