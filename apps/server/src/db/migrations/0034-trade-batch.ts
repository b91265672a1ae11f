import { type Kysely, sql } from 'kysely'

/**
 * The start of a quick-trade batch in one round trip (docs/trade.md "Concurrency", modules/trade/market.ts `open`):
 * `trade_open(...)` does in the server what took four to five statements — lock the market row (`for update`, created
 * when missing), then read the configuration in force, take the batch's order ids and the time, read the payers'
 * accounts (their available balances, and the ids of their available and locked accounts of the market's two assets;
 * those their commands will credit or lock created first when missing, so that a batch seldom has an account to look
 * up or create after it) and the orders their client keys name — and returns the transaction's id (`commit_xid`,
 * assigned by the row lock), which spares the tracked connection its own read before COMMIT (db/transient.ts).
 * `trade_write(...)` then writes the batch's rows (modules/trade/batch.ts `flush`). A batch is six round trips: BEGIN,
 * trade_open, trade_write (with the ledger's account locks beside it), the ledger's transfers, the live publication,
 * COMMIT (docs/benchmarks.md, bench/trade).
 *
 * The function is VOLATILE, so under read committed each of its statements takes a new snapshot: everything read after
 * the lock sees what the batch before it (of any process) committed, as the separate statements did. The configuration
 * comes back whole only when it is not the version the caller names (`p_config_id`, `p_config_at`): a market keeps the
 * rules of the version in force and reads a new one once.
 *
 * The client orders come as a JSON array of their rows with every number as text (numeric(38, 0) does not fit a
 * JavaScript number).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function trade_open(
      p_symbol text, p_quote text, p_ids integer, p_config_id bigint, p_config_at text, p_payers bigint[],
      p_keyed_users bigint[], p_keyed_keys text[], p_new_users bigint[], p_new_assets text[], p_new_kinds text[]
    ) returns table (
      seq text, updated_at timestamptz, now timestamptz, ids text[], config_id text, config_at text, config_value jsonb,
      account_users text[], account_assets text[], account_kinds text[], account_ids text[], balances text[],
      client_orders jsonb, commit_xid text
    ) language plpgsql volatile as $$
    begin
      select m.seq::text, m.updated_at into seq, updated_at from trade_markets m where m.symbol = p_symbol for update;
      if not found then
        insert into trade_markets as m (symbol) values (p_symbol) on conflict do nothing;
        select m.seq::text, m.updated_at into seq, updated_at from trade_markets m where m.symbol = p_symbol for update;
        if not found then raise exception 'trade: market % could not be created', p_symbol; end if;
      end if;
      -- The ids ascend in the order the batch hands them out (docs/trade.md "Matching").
      select array_agg(n.id::text order by n.id) into ids
        from (select nextval('trade_orders_id_seq') as id from generate_series(1, p_ids)) n;
      now := clock_timestamp();
      select c.id::text, c.created_at::text,
             case when c.id is distinct from p_config_id or c.created_at::text is distinct from p_config_at
               then c.value end
        into config_id, config_at, config_value
        from config_versions c order by c.id desc limit 1;
      -- The accounts the payers' commands will credit or lock, created when missing (as ledger/bulk.ts accountIds
      -- creates them: in (user, asset, kind) order, another transaction's row winning the conflict).
      insert into ledger_accounts (user_id, asset, kind)
      select w.user_id, w.asset, w.kind
        from unnest(p_new_users, p_new_assets, p_new_kinds) as w(user_id, asset, kind)
       where not exists (
         select from ledger_accounts a where a.user_id = w.user_id and a.asset = w.asset and a.kind = w.kind)
       order by 1, 2, 3
      on conflict do nothing;
      -- The payers' accounts of the market's two assets, available and locked: their balances, and their ids for
      -- the batch's transfers.
      select array_agg(a.user_id::text), array_agg(a.asset), array_agg(a.kind), array_agg(a.id::text),
             array_agg(a.balance::text)
        into account_users, account_assets, account_kinds, account_ids, balances
        from ledger_accounts a
       where a.user_id = any(p_payers) and a.asset in (p_symbol, p_quote) and a.kind in ('available', 'locked');
      -- One index lookup per client key (trade_orders_client_key); none without keys.
      client_orders := '[]'::jsonb;
      if cardinality(p_keyed_users) > 0 then
        select coalesce(jsonb_agg(jsonb_build_object(
                 'id', o.id::text, 'order_sn', o.order_sn, 'user_id', o.user_id::text, 'side', o.side, 'kind', o.kind,
                 'price', o.price::text, 'amount', o.amount::text, 'filled', o.filled::text, 'quote', o.quote::text,
                 'fee', o.fee::text, 'received', o.received::text, 'locked', o.locked::text, 'status', o.status,
                 'client_order_id', o.client_order_id, 'created_at', o.created_at, 'updated_at', o.updated_at)
                 order by o.id), '[]'::jsonb)
          into client_orders
          from unnest(p_keyed_users, p_keyed_keys) as k(user_id, client_order_id)
          join trade_orders o on o.user_id = k.user_id and o.client_order_id = k.client_order_id
         where o.client_order_id is not null;
      end if;
      commit_xid := txid_current()::text;
      return next;
    end $$`.execute(db)
  await tradeWrite(db)
}

/**
 * The batch's rows: its new orders, its changed orders (returns how many were still pending, as they must be), its
 * fills in the order they were made (their ids follow it) and the market row. The statements' plans are kept per
 * session, where the one statement of CTEs it replaces was planned each batch. (Migration 0037-trade-book-catch-up
 * replaces it, and restores it from here when undone.)
 */
export async function tradeWrite(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function trade_write(
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
    begin
      insert into trade_orders (id, order_sn, symbol, user_id, side, kind, price, amount, filled, quote, fee, received,
        locked, status, client_order_id, created_at, updated_at)
      select o.id, o.order_sn, p_symbol, o.user_id, o.side, o.kind, o.price, o.amount, o.filled, o.quote, o.fee,
        o.received, o.locked, o.status, o.client_order_id, p_time, p_time
      from unnest(p_ids, p_sns, p_users, p_sides, p_kinds, p_prices, p_amounts, p_filled, p_quotes, p_fees, p_received,
        p_locked, p_statuses, p_client_ids)
        as o(id, order_sn, user_id, side, kind, price, amount, filled, quote, fee, received, locked, status,
          client_order_id);
      with changed as (
        update trade_orders t set filled = o.filled, quote = o.quote, fee = o.fee, received = o.received,
          locked = o.locked, status = o.status, updated_at = p_time
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
      update trade_markets m set seq = m.seq + 1, updated_at = p_time, last_price = coalesce(p_last_price, m.last_price)
       where m.symbol = p_symbol;
      return v_changed;
    end $$`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop function trade_write(text, timestamptz, numeric, bigint[], text[], bigint[], text[], text[], numeric[],
      numeric[], numeric[], numeric[], numeric[], numeric[], numeric[], text[], text[], bigint[], numeric[], numeric[],
      numeric[], numeric[], numeric[], text[], bigint[], bigint[], bigint[], bigint[], text[], numeric[], numeric[],
      numeric[], numeric[], numeric[])`.execute(db)
  await sql`drop function trade_open(text, text, integer, bigint, text, bigint[], bigint[], text[], bigint[], text[], text[])`.execute(
    db,
  )
}
