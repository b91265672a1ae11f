import { type Kysely, sql } from 'kysely'
import { up as cheaper } from './0030-live-cheaper.ts'

/**
 * Balance messages written once, already numbered, and no NOTIFY nobody listens to (docs/architecture.md "Live
 * updates", docs/benchmarks.md "bench/ledger" and "bench/settlement"): what the live channel publishes and its numbers
 * (per topic, in commit order, with no gap) are unchanged; what changes is how a balance message reaches the outbox,
 * and that a commit whose topics no instance listens to (`live_topics.listeners`) wakes no instance.
 *
 * Until now every balance change inserted an unnumbered outbox row (four index entries), which `live_sequence` updated
 * at COMMIT with its number (a new row version, not HOT: the number is indexed, three more index entries). Now:
 *
 * - `live_balance` keeps the transaction's first balance messages (up to about 8 kB of them: a transfer has two) in the
 *   transaction-local setting `live.pending`, each with an outbox id taken from the outbox's sequence as it is written
 *   (so a transaction's messages keep the order they were written in, among its other rows too). A setting set locally
 *   goes back with a rolled-back savepoint or transaction, as the row would. Past that size it inserts rows as before.
 * - `live_sequence`, at COMMIT, numbers the pending messages and the transaction's unnumbered rows together, by topic
 *   then id, topics locked in topic order as before: a pending message is inserted with its number, a row is updated.
 *   More than 64 in all: the pending ones are inserted unnumbered first, and all are numbered by the set statements of
 *   0030-live-cheaper. A transaction with no row (an insert into the outbox marks it, `live.rows`) has its pending
 *   messages numbered without reading the outbox.
 * - A deferred constraint trigger on `ledger_accounts` runs it at COMMIT for a transaction that has pending messages
 *   (queued for a balance change while nothing is pending yet: one for a transfer, which the outbox's own trigger no
 *   longer queues since it writes no row); the outbox's trigger now queues nothing for rows inserted numbered.
 * - The settlement's payment statement publishes its balances numbered itself (`live_publish_numbered`, below); the
 *   balance triggers stand aside while `live.balance` is 'off'.
 *
 * Apart from that statement, no topic is locked before COMMIT, as before: a transaction holding a topic's counter
 * while it waits for another row could deadlock with one that holds that row and waits for the topic at its COMMIT.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // How many instances listen to the topic (modules/live/hub.ts counts itself in while it has subscribers): a commit
  // numbering only topics nobody listens to sends no NOTIFY (PostgreSQL serializes the COMMITs of every transaction
  // that notifies, under one lock). Read under the topic's lock, which the count's own update waits for.
  await sql`alter table live_topics add column listeners integer not null default 0`.execute(db)
  // Room on every page for a new version of each counter: its updates (a settlement moves a million a day, each once)
  // are HOT, with no new entry in the primary key's index. Pages written from now on; 20,000 counters moved in one
  // statement on a table of a million took 100–260 ms instead of 235–450.
  await sql`alter table live_topics set (fillfactor = 50)`.execute(db)
  // The outbox's retention goes by id (modules/live/publish.ts purgeOutbox): one index entry fewer per message.
  await sql`drop index live_outbox_created`.execute(db)
  // Every insert into the outbox marks its transaction: it has rows to number at COMMIT (a rolled-back savepoint takes
  // the mark back with its rows).
  await sql`
    create function live_rows() returns trigger language plpgsql as $$
    begin
      perform set_config('live.rows', '1', true);
      return null;
    end $$`.execute(db)
  await sql`
    create trigger live_outbox_rows after insert on live_outbox for each statement
    when (current_setting('live.rows', true) is distinct from '1') execute function live_rows()`.execute(db)
  // Numbers for messages of `topics` (sorted: by topic, then as they are to be numbered): each topic's counter moves
  // past its messages in one statement, in topic order; what it returns is the topic's last number, from which its
  // messages take theirs, walked backwards. `heard`: some instance listens to one of the topics. The topics stay locked
  // until COMMIT.
  await sql`
    create function live_numbers(topics text[], out seqs bigint[], out heard boolean) language plpgsql as $$
    declare
      names text[];
      lasts bigint[];
      k integer;
      n bigint;
    begin
      with counters as (
        insert into live_topics as t (topic, seq)
        select r.topic, count(*) from unnest(topics) as r(topic) group by r.topic order by r.topic
        on conflict (topic) do update set seq = t.seq + excluded.seq
        returning t.topic, t.seq, t.listeners
      )
      select array_agg(c.topic order by c.topic), array_agg(c.seq order by c.topic), bool_or(c.listeners > 0)
        into names, lasts, heard
        from counters c;
      k := cardinality(names);
      n := lasts[k];
      for i in reverse cardinality(topics) .. 1 loop
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
    end $$`.execute(db)
  await sql`
    alter function live_numbers(text[])
      set enable_seqscan = off set enable_bitmapscan = off set enable_hashjoin = off set enable_mergejoin = off
      set enable_hashagg = off set plan_cache_mode = force_generic_plan`.execute(db)
  // The transaction's pending messages and unnumbered rows, numbered together (at COMMIT, from live_sequence).
  await sql`
    create function live_sequence_rows() returns void language plpgsql as $$
    declare
      pending text;
      ids bigint[];
      topics text[];
      payloads jsonb[];
      first_id bigint;
      last_id bigint;
      seqs bigint[];
      n bigint;
      l integer;
      heard boolean := false;
    begin
      pending := nullif(current_setting('live.pending', true), '');
      -- The pending messages (with their payload) and the transaction's rows (the only unnumbered ones it can see,
      -- payload null here), by topic, then id.
      select array_agg(m.id order by m.topic, m.id), array_agg(m.topic order by m.topic, m.id),
             array_agg(m.payload order by m.topic, m.id), min(m.id), max(m.id)
        into ids, topics, payloads, first_id, last_id
        from (
          select (e->>0)::bigint as id, e->>1 as topic, e->2 as payload
            from jsonb_array_elements(('[' || coalesce(pending, '') || ']')::jsonb) e
          union all
          select o.id, o.topic, null from live_outbox o where o.seq is null
        ) m;
      if first_id is null then return; end if;
      if cardinality(ids) <= 64 then
        -- A few (a transfer has two): each moves its topic's counter on by one and takes its number, in topic order
        -- (so two committing transactions never deadlock); a pending message is inserted numbered, a row updated.
        for i in 1 .. cardinality(ids) loop
          insert into live_topics as t (topic, seq) values (topics[i], 1)
            on conflict (topic) do update set seq = t.seq + 1
            returning t.seq, t.listeners into n, l;
          heard := heard or l > 0;
          if payloads[i] is null then
            update live_outbox o set seq = n, committed_at = clock_timestamp() where o.id = ids[i];
          else
            insert into live_outbox (id, topic, seq, payload, committed_at) overriding system value
              values (ids[i], topics[i], n, payloads[i], clock_timestamp());
          end if;
        end loop;
      else
        -- Many: the pending ones become rows, then each topic's counter moves past its rows in one statement, in
        -- topic order; what it returns is the topic's last number, from which its rows, in id order, take theirs,
        -- walked backwards.
        if pending is not null then
          insert into live_outbox (id, topic, payload) overriding system value
            select r.id, r.topic, r.payload from unnest(ids, topics, payloads) as r(id, topic, payload)
             where r.payload is not null;
        end if;
        select r.seqs, r.heard into seqs, heard from live_numbers(topics) r;
        update live_outbox o set seq = r.seq, committed_at = clock_timestamp()
          from unnest(ids, seqs) as r(id, seq)
         where o.id = r.id;
      end if;
      if heard then perform pg_notify('live', first_id || '-' || last_id); end if;
    end $$`.execute(db)
  // As 0030-live-cheaper: plans made once per session, index scans and sorts whatever the statistics.
  await sql`
    alter function live_sequence_rows()
      set enable_seqscan = off set enable_bitmapscan = off set enable_hashjoin = off set enable_mergejoin = off
      set enable_hashagg = off set plan_cache_mode = force_generic_plan`.execute(db)
  await liveNumberedFunctions(db)
  await sql`drop trigger live_outbox_sequence on live_outbox`.execute(db)
  await sql`
    create constraint trigger live_outbox_sequence after insert on live_outbox
    deferrable initially deferred for each row when (new.seq is null) execute function live_sequence()`.execute(db)
  // Both balance triggers stand aside while `live.balance` is 'off': a statement that publishes its balances itself
  // (live_publish_numbered below) sets it around itself.
  await sql`drop trigger live_balance on ledger_accounts`.execute(db)
  await sql`
    create trigger live_balance after update of balance on ledger_accounts for each row
    when (new.user_id is not null and new.balance is distinct from old.balance
      and current_setting('live.balance', true) is distinct from 'off')
    execute function live_balance()`.execute(db)
  await sql`
    create constraint trigger live_balance_sequence after update of balance on ledger_accounts
    deferrable initially deferred for each row
    when (new.user_id is not null and new.balance is distinct from old.balance
      and current_setting('live.balance', true) is distinct from 'off'
      and nullif(current_setting('live.pending', true), '') is null)
    execute function live_sequence()`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function live_publish_numbered(text[], jsonb[])`.execute(db)
  await sql`drop trigger live_outbox_rows on live_outbox`.execute(db)
  await sql`drop function live_rows()`.execute(db)
  await sql`drop trigger live_balance_sequence on ledger_accounts`.execute(db)
  await sql`drop trigger live_balance on ledger_accounts`.execute(db)
  await sql`
    create trigger live_balance after update of balance on ledger_accounts for each row
    when (new.user_id is not null and new.balance is distinct from old.balance) execute function live_balance()`.execute(
    db,
  )
  await sql`drop trigger live_outbox_sequence on live_outbox`.execute(db)
  await sql`
    create constraint trigger live_outbox_sequence after insert on live_outbox
    deferrable initially deferred for each row execute function live_sequence()`.execute(db)
  // 0030-live-cheaper's functions.
  await cheaper(db)
  await sql`drop function live_sequence_rows()`.execute(db)
  await sql`drop function live_numbers(text[])`.execute(db)
  await sql`create index live_outbox_created on live_outbox (created_at)`.execute(db)
  await sql`alter table live_topics reset (fillfactor)`.execute(db)
  await sql`alter table live_topics drop column listeners`.execute(db)
}

/**
 * The balance trigger (`live_balance`), the numbering at COMMIT (`live_sequence`) and the bulk publication
 * (`live_publish_numbered`) as this migration makes them; also what 0033-live-unheard's `down` restores.
 */
export async function liveNumberedFunctions(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function live_balance() returns trigger language plpgsql as $$
    declare
      pending text := nullif(current_setting('live.pending', true), '');
    begin
      if pending is null or length(pending) < 8000 then
        perform set_config('live.pending', coalesce(pending || ',', '') || jsonb_build_array(
          nextval('live_outbox_id_seq'::regclass), 'user:' || new.user_id, jsonb_build_object(
            'kind', 'balance', 'coin', new.asset, 'account', new.kind, 'balance', new.balance::text))::text, true);
      else
        insert into live_outbox (topic, payload) values ('user:' || new.user_id, jsonb_build_object(
          'kind', 'balance', 'coin', new.asset, 'account', new.kind, 'balance', new.balance::text));
      end if;
      return null;
    end $$`.execute(db)
  // At COMMIT: with rows, all of the above; with pending messages only (a transfer's two balances), they are numbered
  // and inserted here, by statements no plan or setting changes (no table read but by primary key), so without the
  // settings above, whose setting and restoring at every call cost more than the numbering of two messages.
  await sql`
    create or replace function live_sequence() returns trigger language plpgsql as $$
    declare
      tx text := txid_current()::text;
      pending text;
      ids bigint[];
      topics text[];
      payloads jsonb[];
      first_id bigint;
      last_id bigint;
      n bigint;
      l integer;
      heard boolean := false;
    begin
      if current_setting('live.sequenced', true) is not distinct from tx then return null; end if;
      perform set_config('live.sequenced', tx, true);
      if current_setting('live.rows', true) = '1' then
        perform live_sequence_rows();
        return null;
      end if;
      pending := nullif(current_setting('live.pending', true), '');
      if pending is null then return null; end if;
      -- At most about 8 kB of them (live_balance): numbered one by one, by topic then id, topics in topic order.
      select array_agg((e->>0)::bigint order by e->>1, (e->>0)::bigint), array_agg(e->>1 order by e->>1, (e->>0)::bigint),
             array_agg(e->2 order by e->>1, (e->>0)::bigint), min((e->>0)::bigint), max((e->>0)::bigint)
        into ids, topics, payloads, first_id, last_id
        from jsonb_array_elements(('[' || pending || ']')::jsonb) e;
      for i in 1 .. cardinality(ids) loop
        insert into live_topics as t (topic, seq) values (topics[i], 1)
          on conflict (topic) do update set seq = t.seq + 1
          returning t.seq, t.listeners into n, l;
        heard := heard or l > 0;
        insert into live_outbox (id, topic, seq, payload, committed_at) overriding system value
          values (ids[i], topics[i], n, payloads[i], clock_timestamp());
      end loop;
      if heard then perform pg_notify('live', first_id || '-' || last_id); end if;
      return null;
    end $$`.execute(db)
  await sql`alter function live_sequence() reset all`.execute(db)

  /*
   * Messages published numbered at once, for a statement that writes thousands (the settlement's payment batch,
   * modules/ledger/bulk.ts creditUsers): `topics` sorted, `payloads` alike. Each topic's counter moves past its
   * messages in one statement, in topic order, and the rows are inserted with their numbers; the NOTIFY goes at
   * COMMIT as any other. The topics stay locked until COMMIT, so the caller must publish nothing more in its
   * transaction and wait for no other lock after it (a transaction holding a topic while it waits could deadlock
   * with one waiting for that topic at its COMMIT); a transaction with messages not yet numbered is refused, as its
   * earlier messages would be numbered after these.
   */
  await sql`
    create or replace function live_publish_numbered(topics text[], payloads jsonb[]) returns integer language plpgsql as $$
    declare
      seqs bigint[];
      first_id bigint;
      last_id bigint;
      heard boolean;
    begin
      if coalesce(cardinality(topics), 0) = 0 then return 0; end if;
      if nullif(current_setting('live.pending', true), '') is not null
        or exists (select 1 from live_outbox o where o.seq is null) then
        raise exception 'live: numbered messages after unnumbered ones in one transaction';
      end if;
      select r.seqs, r.heard into seqs, heard from live_numbers(topics) r;
      with made as (
        insert into live_outbox (topic, seq, payload, committed_at)
        select r.topic, r.seq, r.payload, clock_timestamp() from unnest(topics, seqs, payloads) as r(topic, seq, payload)
        returning id
      )
      select min(id), max(id) into first_id, last_id from made;
      if heard then perform pg_notify('live', first_id || '-' || last_id); end if;
      return cardinality(topics);
    end $$`.execute(db)
  await sql`
    alter function live_publish_numbered(text[], jsonb[])
      set enable_seqscan = off set enable_bitmapscan = off set enable_hashjoin = off set enable_mergejoin = off
      set enable_hashagg = off set plan_cache_mode = force_generic_plan`.execute(db)
}
