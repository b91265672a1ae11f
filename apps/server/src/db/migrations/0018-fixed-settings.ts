import { type Kysely, sql } from 'kysely'

/**
 * `fixed_settings`: what cannot change after the first start (SOLANA_CLUSTER, PRODUCT_SYMBOL, PRODUCT_MINT, USDT_MINT,
 * TREASURY_ADDRESS, ROOT_ADDRESS), compared at every start (modules/system/fixed-settings.ts), and one-time facts such
 * as `demo_content` (the demo notices were seeded once: deleted ones stay deleted).
 *
 * An existing installation keeps what it was set up with: the mints and the product symbol from `assets`, the root
 * from `users`, and the demo-content fact when demo notices exist. The cluster and the treasury are recorded at the
 * next start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fixed_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`
    insert into fixed_settings (name, value)
    select 'USDT_MINT', mint from assets where code = 'USDT' and mint is not null
    union all
    select name, value from (
      select code, mint from assets where code <> 'USDT' and mint is not null order by sort, code limit 1
    ) product cross join lateral (values ('PRODUCT_SYMBOL', product.code), ('PRODUCT_MINT', product.mint)) v(name, value)
    union all
    select 'ROOT_ADDRESS', address from (select address from users where parent_id is null order by id limit 1) root
    union all
    select 'demo_content', 'done' where exists (select 1 from notices where slug like 'demo-%')`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fixed_settings').execute()
}
