import { type Kysely, type RawBuilder, sql } from 'kysely'
import { liveNumberedFunctions } from './0031-live-numbered.ts'

/** The advisory lock key space of the topics' buckets (`pg_advisory_xact_lock(key, bucket)`): 'LIVE'. */
export const LIVE_BUCKETS_KEY = 0x4c495645

/** The bucket (0–63) of the topic `topic` (an SQL text expression), as this migration's functions compute it. */
export const liveBucket = (topic: RawBuilder<string> | string) =>
  sql<number>`(hashtext(${typeof topic === 'string' ? sql`${topic}::text` : topic}) & 63)`

/**
 * Balance messages are written only for topics some instance listens to (docs/architecture.md "Live updates",
 * docs/benchmarks.md "bench/ledger" and "bench/settlement"). A balance message to a user who is not in the app (a
 * transfer's counterparty, most of a settlement batch) was written, numbered and kept for an hour for nobody: a client
 * takes a snapshot of its balances whenever it subscribes without a number to resume from.
 *
 * A client that resumes from a number needs to know that it missed something. So when the last instance listening to
 * a user's topic counts itself out (modules/live/hub.ts), the topic's number moves on by one, with no row: a client
 * resuming from before that finds a hole the outbox does not have and takes a snapshot, as after the outbox's
 * retention. While a topic is listened to, every message is written and numbered as before.
 *
 * "Nobody listens" must stay true until the commit that relied on it: an instance counting itself in would otherwise
 * read a number, and its client a snapshot, that miss a change committed just after. The balance trigger reads it
 * holding the topic's bucket (one of 64 advisory locks) in shared mode until the end of its transaction, and an
 * instance counts itself in holding the bucket exclusively, so the count waits for the transactions that decided
 * without it, and those after it see it. A writer only ever tries the bucket (`pg_try_advisory_xact_lock_shared`) and
 * never waits for it: when it cannot have it (an instance is counting itself in), or reads from a snapshot older than
 * its statement (repeatable read, serializable), it writes the message. So no writer waits on a bucket while holding
 * rows, and an instance counting itself in holds nothing while it waits: they never wait on each other in a cycle.
 *
 * Other messages (`publish`, the triggers on withdrawals, intents, content and configuration) are written as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The topics listened to: few among a million, looked up at every balance change and for every user paid by a
  // settlement batch. Counters' updates (the number only) stay HOT.
  await sql`create index live_topics_heard on live_topics (topic) where listeners > 0`.execute(db)
  await unheardBalance(db)
  // The buckets this transaction holds from now on (shared, tried, never waited for), as 64 flags by bucket + 1: none in
  // a transaction that reads from one snapshot. A topic of a held bucket that nobody listens to stays unheard until
  // this transaction ends.
  await sql`
    create function live_buckets() returns boolean[] language plpgsql as $$
    declare
      held boolean[] := array_fill(false, array[64]);
    begin
      if current_setting('transaction_isolation') = 'read committed' then
        for b in 0 .. 63 loop
          held[b + 1] := pg_try_advisory_xact_lock_shared(${sql.lit(LIVE_BUCKETS_KEY)}, b);
        end loop;
      end if;
      return held;
    end $$`.execute(db)
  // As 0031-live-numbered's, for the messages of the topics listened to, and of those whose bucket it cannot have (the
  // caller, modules/ledger/bulk.ts, leaves out the others before building them).

  await sql`
    create or replace function live_publish_numbered(topics text[], payloads jsonb[]) returns integer
    language plpgsql as $$
    declare
      held boolean[] := live_buckets();
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
      select coalesce(array_agg(r.topic order by r.n), '{}'), coalesce(array_agg(r.payload order by r.n), '{}')
        into topics, payloads
        from unnest(topics, payloads) with ordinality as r(topic, payload, n)
       where not held[(hashtext(r.topic) & 63) + 1]
          or exists (select 1 from live_topics t where t.topic = r.topic and t.listeners > 0);
      if cardinality(topics) = 0 then return 0; end if;
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
  // A replaced function loses its settings: those of 0031-live-numbered again.
  await sql`
    alter function live_publish_numbered(text[], jsonb[])
      set enable_seqscan = off set enable_bitmapscan = off set enable_hashjoin = off set enable_mergejoin = off
      set enable_hashagg = off set plan_cache_mode = force_generic_plan`.execute(db)
}

/**
 * The balance trigger's function as this migration makes it: as 0031-live-numbered's, unless nobody listens to the
 * topic (and the bucket is held): then nothing at all, not even the COMMIT's numbering. Also what
 * 0035-live-balance-before's `down` restores.
 */
export async function unheardBalance(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function live_balance() returns trigger language plpgsql as $$
    declare
      v_topic text := 'user:' || new.user_id;
      pending text;
    begin
      -- Who listens is read by a statement of its own, after the bucket is held: its snapshot then sees an instance
      -- that counted itself in before.
      if current_setting('transaction_isolation') = 'read committed'
        and pg_try_advisory_xact_lock_shared(${sql.lit(LIVE_BUCKETS_KEY)}, hashtext(v_topic) & 63) then
        if not exists (select 1 from live_topics t where t.topic = v_topic and t.listeners > 0) then
          return null;
        end if;
      end if;
      pending := nullif(current_setting('live.pending', true), '');
      if pending is null or length(pending) < 8000 then
        perform set_config('live.pending', coalesce(pending || ',', '') || jsonb_build_array(
          nextval('live_outbox_id_seq'::regclass), v_topic, jsonb_build_object(
            'kind', 'balance', 'coin', new.asset, 'account', new.kind, 'balance', new.balance::text))::text, true);
      else
        insert into live_outbox (topic, payload) values (v_topic, jsonb_build_object(
          'kind', 'balance', 'coin', new.asset, 'account', new.kind, 'balance', new.balance::text));
      end if;
      return null;
    end $$`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await liveNumberedFunctions(db)
  await sql`drop function live_buckets()`.execute(db)
  await sql`drop index live_topics_heard`.execute(db)
}
