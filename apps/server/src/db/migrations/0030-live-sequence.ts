import { type Kysely, sql } from 'kysely'

/**
 * The live outbox's numbering at COMMIT (`live_sequence`, migration 0024-live; docs/architecture.md "Outbox and
 * numbering") stays linear in the transaction's events however the session's cached plan was made.
 *
 * PL/pgSQL caches the plan of its parameterless statement once per session, made with the sizes the planner saw at
 * its first commit: on an outbox of a few unnumbered rows it joins the transaction's rows, their topics' counts and
 * the numbered topics by nested loops over the CTEs. That is free for a handful of events and quadratic for many:
 * 5,000 new members under 2,500 referrers (one `live_team` event each) then took 8 s to commit, 20,000 took 87 s
 * (0.5 s when the session had no plan yet), and bench/team's 1,000,000-user generation never finished
 * (docs/benchmarks.md, bench/team). Any large transaction through a pooled connection was exposed the same way: a
 * settlement's balance events, a bulk import of users.
 *
 * Now the count of unnumbered rows is looked at first (at most `LARGE` index entries of the partial index). Below it
 * the cached statement runs as before; at or above it the same statement is planned afresh (EXECUTE) with nested
 * loops off, so the joins are hash or merge joins whatever the statistics say, and the outbox rows to update are
 * reached through the partial index of unnumbered rows (`o.seq is null`, which every row of `mine` satisfies), not by
 * reading the whole retained outbox. The numbers, the NOTIFY and their order are unchanged.
 */
const LARGE = 100

const numbering = `
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
        where o.id = mine.id and o.seq is null
        returning o.id
      )
      select min(id), max(id) from updated`

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
    create or replace function live_sequence() returns trigger language plpgsql as $$
    declare
      tx text := txid_current()::text;
      first_id bigint;
      last_id bigint;
      nestloop text;
    begin
      if current_setting('live.sequenced', true) is not distinct from tx then return null; end if;
      perform set_config('live.sequenced', tx, true);
      if (select count(*) from (select from live_outbox where seq is null limit ${LARGE}) few) < ${LARGE} then
        ${numbering}
        into first_id, last_id;
      else
        nestloop := current_setting('enable_nestloop');
        perform set_config('enable_nestloop', 'off', true);
        execute $numbering$ ${numbering} $numbering$ into first_id, last_id;
        perform set_config('enable_nestloop', nestloop, true);
      end if;
      if first_id is not null then perform pg_notify('live', first_id || '-' || last_id); end if;
      return null;
    end $$`)
    .execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
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
}
