import { type Kysely, sql } from 'kysely'
import { tradeWrite } from './0034-trade-batch.ts'

/**
 * Each order row keeps the market's `seq` of the batch that last wrote it (docs/trade.md "Concurrency and the
 * catch-up"), so that a process whose book another process moved on reads only the orders written since its book's
 * `seq` (index `(symbol, seq)`) instead of rebuilding the book from every pending order. With two instances on one
 * market nearly every batch found the book moved on, and rebuilt it while it held the market row: a rebuild reads
 * the whole book, a catch-up what the other instance's last batches changed.
 *
 * `trade_write` (migration 0034-trade-batch) moves the market row first, and writes its new `seq` into every order it
 * inserts or changes; nothing else writes orders. Rows from before this migration keep 0: every book built since (a
 * rebuild at start) already holds them as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table trade_orders add column seq bigint not null default 0`.execute(db)
  await sql`create index trade_orders_seq_idx on trade_orders (symbol, seq)`.execute(db)
  await sql`
    create or replace function trade_write(
      p_symbol text, p_time timestamptz, p_last_price numeric,
      p_ids bigint[], p_sns text[], p_users bigint[], p_sides text[], p_kinds text[], p_prices numeric[],
      p_amounts numeric[], p_filled numeric[], p_quotes numeric[], p_fees numeric[], p_received numeric[],
      p_locked numeric[], p_statuses text[], p_client_ids text[],
      p_changed_ids bigint[], p_changed_filled numeric[], p_changed_quotes numeric[], p_changed_fees numeric[],
      p_changed_received numeric[], p_changed_locked numeric[], p_changed_statuses text[],
      p_makers bigint[], p_takers bigint[], p_maker_users bigint[], p_taker_users bigint[], p_taker_sides text[],
      p_fill_prices numeric[], p_fill_amounts numeric[], p_fill_quotes numeric[], p_maker_fees numeric[],
      p_taker_fees numeric[]
    ) returns bigint language plpgsql volatile as $$
    declare
      v_changed bigint;
      v_seq bigint;
    begin
      -- The market row first (trade_open holds its lock): its new seq marks every order the batch writes.
      update trade_markets m set seq = m.seq + 1, updated_at = p_time, last_price = coalesce(p_last_price, m.last_price)
       where m.symbol = p_symbol
      returning m.seq into v_seq;
      insert into trade_orders (id, order_sn, symbol, user_id, side, kind, price, amount, filled, quote, fee, received,
        locked, status, client_order_id, created_at, updated_at, seq)
      select o.id, o.order_sn, p_symbol, o.user_id, o.side, o.kind, o.price, o.amount, o.filled, o.quote, o.fee,
        o.received, o.locked, o.status, o.client_order_id, p_time, p_time, v_seq
      from unnest(p_ids, p_sns, p_users, p_sides, p_kinds, p_prices, p_amounts, p_filled, p_quotes, p_fees, p_received,
        p_locked, p_statuses, p_client_ids)
        as o(id, order_sn, user_id, side, kind, price, amount, filled, quote, fee, received, locked, status,
          client_order_id);
      with changed as (
        update trade_orders t set filled = o.filled, quote = o.quote, fee = o.fee, received = o.received,
          locked = o.locked, status = o.status, updated_at = p_time, seq = v_seq
        from unnest(p_changed_ids, p_changed_filled, p_changed_quotes, p_changed_fees, p_changed_received,
          p_changed_locked, p_changed_statuses) as o(id, filled, quote, fee, received, locked, status)
        where t.id = o.id and t.status = 'pending'
        returning t.id
      )
      select count(*) into v_changed from changed;
      insert into trade_fills (symbol, maker_order_id, taker_order_id, maker_user_id, taker_user_id, taker_side, price,
        amount, quote, maker_fee, taker_fee, created_at)
      select p_symbol, f.maker_order_id, f.taker_order_id, f.maker_user_id, f.taker_user_id, f.taker_side, f.price,
        f.amount, f.quote, f.maker_fee, f.taker_fee, p_time
      from unnest(p_makers, p_takers, p_maker_users, p_taker_users, p_taker_sides, p_fill_prices, p_fill_amounts,
        p_fill_quotes, p_maker_fees, p_taker_fees) with ordinality
        as f(maker_order_id, taker_order_id, maker_user_id, taker_user_id, taker_side, price, amount, quote, maker_fee,
          taker_fee, n)
      order by f.n;
      return v_changed;
    end $$`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop function trade_write(text, timestamptz, numeric, bigint[], text[], bigint[], text[], text[], numeric[],
      numeric[], numeric[], numeric[], numeric[], numeric[], numeric[], text[], text[], bigint[], numeric[], numeric[],
      numeric[], numeric[], numeric[], text[], bigint[], bigint[], bigint[], bigint[], text[], numeric[], numeric[],
      numeric[], numeric[], numeric[])`.execute(db)
  await tradeWrite(db)
  await sql`drop index trade_orders_seq_idx`.execute(db)
  await sql`alter table trade_orders drop column seq`.execute(db)
}
