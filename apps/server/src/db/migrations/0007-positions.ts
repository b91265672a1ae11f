import { type Kysely, sql } from 'kysely'

const money = sql`numeric(38, 0)`

/**
 * Staking, finance deposits, power and the daily settlement (docs/settlement.md).
 *
 * Positions keep integer schedules: `total_output` is fixed at entry and `released` only grows, by the settlement,
 * never past it (CHECK). Days are UTC dates: a position made on day C of N days produces on days C+1 … C+N and
 * expires with the last release on day C+N (`end_day`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stakes')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull())
    // The staked amount, {product} base units.
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount > 0`))
    // USDT base units per whole token at entry, and the stake's USDT value at that price (rounded down).
    .addColumn('price', money, (c) => c.notNull().check(sql`price > 0`))
    .addColumn('usdt_value', money, (c) => c.notNull())
    .addColumn('days', 'integer', (c) => c.notNull().check(sql`days > 0`))
    .addColumn('output_bps', 'integer', (c) => c.notNull())
    .addColumn('power_bps', 'integer', (c) => c.notNull())
    .addColumn('power', money, (c) => c.notNull())
    .addColumn('total_output', money, (c) => c.notNull())
    .addColumn('released', money, (c) => c.notNull().defaultTo(0))
    .addColumn('start_day', 'date', (c) => c.notNull())
    .addColumn('end_day', 'date', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('mining'))
    // Paid on chain: the payment intent (one stake per intent, ever). Null when paid from the balance.
    .addColumn('intent_id', 'bigint', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expired_at', 'timestamptz')
    .addCheckConstraint('stakes_status', sql`status in ('mining', 'expired')`)
    .addCheckConstraint('stakes_released', sql`released >= 0 and released <= total_output`)
    .execute()
  await db.schema.createIndex('stakes_user_idx').on('stakes').columns(['user_id', 'status', 'id']).execute()
  await db.schema
    .createIndex('stakes_mining_idx')
    .on('stakes')
    .column('id')
    .where(sql.ref('status'), '=', 'mining')
    .execute()

  await db.schema
    .createTable('finance_deposits')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('days', 'integer', (c) => c.notNull().check(sql`days > 0`))
    .addColumn('output_bps', 'integer', (c) => c.notNull())
    .addColumn('power_bps', 'integer', (c) => c.notNull())
    .addColumn('power', money, (c) => c.notNull())
    .addColumn('total_output', money, (c) => c.notNull())
    .addColumn('released', money, (c) => c.notNull().defaultTo(0))
    .addColumn('start_day', 'date', (c) => c.notNull())
    .addColumn('end_day', 'date', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expired_at', 'timestamptz')
    .addColumn('redeemed_at', 'timestamptz')
    .addCheckConstraint('finance_status', sql`status in ('active', 'expired')`)
    .addCheckConstraint('finance_released', sql`released >= 0 and released <= total_output`)
    .addCheckConstraint('finance_redeem_after_expiry', sql`redeemed_at is null or status = 'expired'`)
    .execute()
  await db.schema.createIndex('finance_user_idx').on('finance_deposits').columns(['user_id', 'status', 'id']).execute()
  await db.schema
    .createIndex('finance_active_idx')
    .on('finance_deposits')
    .column('id')
    .where(sql.ref('status'), '=', 'active')
    .execute()

  // Every credit the settlement makes, by type: pledge_output, finance_output, node_dividend, referral_reward.
  // parent_id is the stake, deposit or node it came from (for referral rewards: the member who produced it).
  await db.schema
    .createTable('output_records')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'bigint', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // One record per (day, type, parent, user): a second settlement of the same day can never add another.
  await db.schema
    .createIndex('output_records_once')
    .unique()
    .on('output_records')
    .columns(['day', 'type', 'parent_id', 'user_id'])
    .execute()
  await db.schema
    .createIndex('output_records_parent_idx')
    .on('output_records')
    .columns(['type', 'parent_id', 'id'])
    .execute()
  await db.schema.createIndex('output_records_user_idx').on('output_records').columns(['user_id', 'day']).execute()

  // Power and performance (docs/design.md#power-and-performance), per user; team figures are sums over the whole
  // downline, kept current by every change (modules/power). Power and performance are USDT base units.
  await db.schema
    .createTable('user_power')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    .addColumn('personal_power', money, (c) => c.notNull().defaultTo(0))
    .addColumn('team_power', money, (c) => c.notNull().defaultTo(0))
    .addColumn('performance', money, (c) => c.notNull().defaultTo(0))
    .addColumn('team_performance', money, (c) => c.notNull().defaultTo(0))
    .addCheckConstraint(
      'user_power_nonnegative',
      sql`personal_power >= 0 and team_power >= 0 and performance >= 0 and team_performance >= 0`,
    )
    .execute()
  // New power as it happens (a stake, a deposit, a node): today's, direct new and ranking figures add these up.
  await db.schema
    .createTable('power_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_id', 'bigint', (c) => c.notNull())
    .addColumn('power', money, (c) => c.notNull().check(sql`power > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('power_events_once')
    .unique()
    .on('power_events')
    .columns(['source', 'source_id'])
    .execute()
  await db.schema.createIndex('power_events_day_idx').on('power_events').columns(['day', 'user_id']).execute()

  // One row per settled day: taken by one instance at a time (row lock), advanced batch by batch in the same
  // transaction as the batch's credits, so a crash resumes exactly where the last commit left it.
  await db.schema
    .createTable('settlement_runs')
    .addColumn('day', 'date', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('running'))
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('cursor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('summary', 'jsonb')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addCheckConstraint('settlement_runs_status', sql`status in ('running', 'done')`)
    .execute()
  // Referral rewards of a day, computed in one pass from the day's pledge output, then paid in batches.
  await db.schema
    .createTable('referral_accruals')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount > 0`))
    .addPrimaryKeyConstraint('referral_accruals_pk', ['day', 'user_id'])
    .execute()

  // Payment intents now also pay a stake or a node: what to do on fulfilment, and what was done.
  await db.schema.alterTable('payment_intents').addColumn('details', 'jsonb').addColumn('outcome', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_intents').dropColumn('details').dropColumn('outcome').execute()
  for (const table of [
    'referral_accruals',
    'settlement_runs',
    'power_events',
    'user_power',
    'output_records',
    'finance_deposits',
    'stakes',
  ])
    await db.schema.dropTable(table).execute()
}
