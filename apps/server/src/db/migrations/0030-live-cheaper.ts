import { type Kysely, sql } from 'kysely'

/**
 * The live channel's triggers of 0024-live, cheaper per ledger transfer (docs/benchmarks.md "bench/ledger"); what
 * they publish, its numbers and the NOTIFY are unchanged.
 *
 * - `live_balance` inserts its outbox row itself instead of through `live_publish`: a SQL function called from
 *   PL/pgSQL is parsed and planned again on every call, a statement of the trigger's own once per session. Every
 *   balance change (two per transfer) paid that.
 * - `live_sequence` (at COMMIT) reads the transaction's rows once, into arrays, by topic then id. Up to 64 of them (a
 *   transfer has two) each move their topic's counter on by one and take its number, by primary key; more move each
 *   topic's counter once, in one statement, and are numbered from the counters in one update. Its one statement of
 *   CTEs joined the rows to their counts and topics with hash tables built for two rows (a quarter of a transfer's
 *   database time in a profile), or, once the outbox had statistics, with nested loops over CTE scans whose cost
 *   grows with the square of the rows (a settlement's balances). Topics are still locked in topic order, and a
 *   topic's rows numbered in id order.
 * - It is planned without sequential and bitmap scans, hash tables and merge joins. Until the outbox has statistics (a new database, or before
 *   autovacuum's first ANALYZE of it) the planner expected dozens of unnumbered rows and updated them through a
 *   sequential scan of the whole outbox, at every COMMIT that published anything: 8 ms at 6,700 rows, growing with
 *   the outbox. A bitmap scan of the unnumbered rows' partial index also leaves its entries of rows numbered since in
 *   place (only plain index scans mark them dead), so every scan walked them all again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function live_balance() returns trigger language plpgsql as $$
    begin
      insert into live_outbox (topic, payload) values ('user:' || new.user_id, jsonb_build_object(
        'kind', 'balance', 'coin', new.asset, 'account', new.kind, 'balance', new.balance::text));
      return null;
    end $$`.execute(db)
  await sql`
    create or replace function live_sequence() returns trigger language plpgsql as $$
    declare
      tx text := txid_current()::text;
      ids bigint[];
      topics text[];
      first_id bigint;
      last_id bigint;
      names text[];
      lasts bigint[];
      seqs bigint[];
      k integer;
      n bigint;
    begin
      if current_setting('live.sequenced', true) is not distinct from tx then return null; end if;
      perform set_config('live.sequenced', tx, true);
      -- The transaction's rows: the only unnumbered ones it can see, by topic, then id.
      select array_agg(o.id order by o.topic, o.id), array_agg(o.topic order by o.topic, o.id), min(o.id), max(o.id)
        into ids, topics, first_id, last_id
        from live_outbox o where o.seq is null;
      if first_id is null then return null; end if;
      if cardinality(ids) <= 64 then
        -- A few rows (a transfer has two): each moves its topic's counter on by one and takes its number, in topic
        -- order (so two committing transactions never deadlock).
        for i in 1 .. cardinality(ids) loop
          insert into live_topics as t (topic, seq) values (topics[i], 1)
            on conflict (topic) do update set seq = t.seq + 1
            returning t.seq into n;
          update live_outbox o set seq = n, committed_at = clock_timestamp() where o.id = ids[i];
        end loop;
      else
        -- Many: each topic's counter moves past its rows in one statement, in topic order; what it returns is the
        -- topic's last number, from which its rows, in id order, take theirs, walked backwards.
        with counters as (
          insert into live_topics as t (topic, seq)
          select r.topic, count(*) from unnest(topics) as r(topic) group by r.topic order by r.topic
          on conflict (topic) do update set seq = t.seq + excluded.seq
          returning t.topic, t.seq
        )
        select array_agg(c.topic order by c.topic), array_agg(c.seq order by c.topic) into names, lasts
          from counters c;
        k := cardinality(names);
        n := lasts[k];
        for i in reverse cardinality(ids) .. 1 loop
          if topics[i] <> names[k] then
            k := k - 1;
            n := lasts[k];
            if k < 1 or topics[i] is distinct from names[k] then
              raise exception 'live: topic % out of order', topics[i];
            end if;
          end if;
          seqs[i] := n;
          n := n - 1;
        end loop;
        update live_outbox o set seq = r.seq, committed_at = clock_timestamp()
          from unnest(ids, seqs) as r(id, seq)
         where o.id = r.id;
      end if;
      perform pg_notify('live', first_id || '-' || last_id);
      return null;
    end $$`.execute(db)
  // Index scans and nested loops whatever the statistics (see above), sorts instead of hash tables, and plans made
  // once per session: with custom plans (PostgreSQL's first choice for statements with parameters, kept while they
  // look cheaper than the generic one, as they always do for two-element arrays) every COMMIT planned its statements
  // again.
  await sql`
    alter function live_sequence()
      set enable_seqscan = off set enable_bitmapscan = off set enable_hashjoin = off set enable_mergejoin = off
      set enable_hashagg = off set plan_cache_mode = force_generic_plan`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter function live_sequence() reset all`.execute(db)
  await sql`
    create or replace function live_sequence() returns trigger language plpgsql as $$
    declare
      tx text := txid_current()::text;
      first_id bigint;
      last_id bigint;
    begin
      if current_setting('live.sequenced', true) is not distinct from tx then return null; end if;
      perform set_config('live.sequenced', tx, true);
      with mine as (
        select id, topic, row_number() over (partition by topic order by id) as n
        from live_outbox where seq is null
      ), counts as (
        select topic, count(*) as n from mine group by topic
      ), numbered as (
        insert into live_topics as t (topic, seq)
        select topic, n from counts order by topic
        on conflict (topic) do update set seq = t.seq + excluded.seq
        returning t.topic, t.seq
      ), updated as (
        update live_outbox o
        set seq = numbered.seq - counts.n + mine.n, committed_at = clock_timestamp()
        from mine join counts using (topic) join numbered using (topic)
        where o.id = mine.id
        returning o.id
      )
      select min(id), max(id) into first_id, last_id from updated;
      if first_id is not null then perform pg_notify('live', first_id || '-' || last_id); end if;
      return null;
    end $$`.execute(db)
  await sql`
    create or replace function live_balance() returns trigger language plpgsql as $$
    begin
      perform live_publish('user:' || new.user_id, jsonb_build_object(
        'kind', 'balance', 'coin', new.asset, 'account', new.kind, 'balance', new.balance::text));
      return null;
    end $$`.execute(db)
}
