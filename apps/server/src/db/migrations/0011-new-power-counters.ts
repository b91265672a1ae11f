import { type Kysely, sql } from 'kysely'

/**
 * Today's new power below each user (home and /invest/invest_pledge/today), maintained in the same ancestry UPDATE
 * that adds a new position's power (modules/power): the counters belong to `new_power_day` and start again from zero
 * on the first change of a later day, so a leader's figures are one primary-key read, never a walk of the downline.
 * Existing rows start without a day: their counters read as zero until their first new power.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user_power')
    .addColumn('new_power_day', 'date')
    .addColumn('team_new_power', sql`numeric(38, 0)`, (c) => c.notNull().defaultTo(0))
    .addColumn('direct_new_power', sql`numeric(38, 0)`, (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user_power')
    .dropColumn('new_power_day')
    .dropColumn('team_new_power')
    .dropColumn('direct_new_power')
    .execute()
}
