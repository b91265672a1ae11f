import { type Kysely, sql } from 'kysely'

/**
 * Live updates (docs/architecture.md "Live updates"): the outbox every change is published through, in the
 * transaction that makes the change, and the triggers that publish the changes of the tables many code paths write.
 *
 * - `live_outbox`: one row per message, `seq` null until the transaction commits. A deferred constraint trigger runs
 *   at COMMIT: it numbers the transaction's rows per topic from `live_topics` (locked in topic order, so two
 *   committing transactions never deadlock and a topic's numbers follow its commit order with no gap: a rolled back
 *   transaction never took any), and sends one NOTIFY on the channel `live` carrying the first and last row id of
 *   the transaction ("first-last"); listeners read the rows themselves.
 * - `live_topics`: the last sequence number of each topic (what a subscriber's snapshot starts from).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table live_topics (
      topic text primary key,
      seq bigint not null
    )`.execute(db)
  await sql`
    create table live_outbox (
      id bigint generated always as identity primary key,
      topic text not null,
      seq bigint,
      payload jsonb not null,
      created_at timestamptz not null default now(),
      -- Set with seq at commit: what the listeners' NOTIFY lag is measured from.
      committed_at timestamptz
    )`.execute(db)
  // Replays and gap fills read a topic's rows by number; the commit trigger finds its own rows (the only ones without
  // a number that it can see) through the partial index.
  await sql`create unique index live_outbox_topic_seq on live_outbox (topic, seq)`.execute(db)
  await sql`create index live_outbox_unsequenced on live_outbox (id) where seq is null`.execute(db)
  await sql`create index live_outbox_created on live_outbox (created_at)`.execute(db)

  await sql`
    create function live_publish(topic text, payload jsonb) returns void language sql as $$
      insert into live_outbox (topic, payload) values (topic, payload)
    $$`.execute(db)

  // Runs once per row at commit; the first call of the transaction numbers all of its rows, the others return.
  await sql`
    create function live_sequence() returns trigger language plpgsql as $$
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
    create constraint trigger live_outbox_sequence after insert on live_outbox
    deferrable initially deferred for each row execute function live_sequence()`.execute(db)

  // A user's balances: every movement of the ledger, whatever module made it.
  await sql`
    create function live_balance() returns trigger language plpgsql as $$
    begin
      perform live_publish('user:' || new.user_id, jsonb_build_object(
        'kind', 'balance', 'coin', new.asset, 'account', new.kind, 'balance', new.balance::text));
      return null;
    end $$`.execute(db)
  await sql`
    create trigger live_balance after update of balance on ledger_accounts for each row
    when (new.user_id is not null and new.balance is distinct from old.balance) execute function live_balance()`.execute(
    db,
  )

  // Withdrawals: to their user (requested → review → sent → confirmed, with the signature) and to the console's queue.
  await sql`
    create function live_withdrawal() returns trigger language plpgsql as $$
    begin
      perform live_publish('user:' || new.user_id, jsonb_build_object(
        'kind', 'withdrawal', 'id', new.id::text, 'status', new.status, 'signature', new.signature,
        'reason', case when new.status = 'rejected' then new.error end, 'updated_at', new.updated_at));
      perform live_publish('console', jsonb_build_object('kind', 'withdrawal', 'id', new.id::text, 'status', new.status));
      return null;
    end $$`.execute(db)
  await sql`
    create trigger live_withdrawal after insert or update of status, signature on withdrawals for each row
    execute function live_withdrawal()`.execute(db)

  // Payment intents: credited (or expired) as the ledger says.
  await sql`
    create function live_intent() returns trigger language plpgsql as $$
    begin
      perform live_publish('user:' || new.user_id, jsonb_build_object(
        'kind', 'intent', 'id', new.id::text, 'purpose', new.purpose, 'status', new.status,
        'signature', new.signature));
      return null;
    end $$`.execute(db)
  await sql`
    create trigger live_intent after update of status on payment_intents for each row
    when (new.status is distinct from old.status) execute function live_intent()`.execute(db)

  // A new direct member: the parent's team page.
  await sql`
    create function live_team() returns trigger language plpgsql as $$
    begin
      perform live_publish('user:' || new.parent_id, jsonb_build_object('kind', 'team', 'member', new.id::text));
      return null;
    end $$`.execute(db)
  await sql`
    create trigger live_team after insert on users for each row when (new.parent_id is not null)
    execute function live_team()`.execute(db)

  // Whole-table changes, published once per statement: (topic, payload) are the trigger's arguments.
  await sql`
    create function live_statement() returns trigger language plpgsql as $$
    begin
      perform live_publish(tg_argv[0], tg_argv[1]::jsonb);
      return null;
    end $$`.execute(db)
  const onStatement = async (table: string, events: string, topic: string, payload: object) => {
    const args = [topic, JSON.stringify(payload)].map((value) => `'${value.replaceAll("'", "''")}'`).join(', ')
    await sql
      .raw(
        `create trigger live_${table} after ${events} on ${table} for each statement ` +
          `execute function live_statement(${args})`,
      )
      .execute(db)
  }
  for (const table of ['notices', 'notice_translations', 'banners', 'banner_translations'])
    await onStatement(table, 'insert or update or delete', 'notice', { kind: 'content' })
  await onStatement('config_versions', 'insert', 'config', { kind: 'config' })
  await onStatement('asset_versions', 'insert', 'config', { kind: 'assets' })
  await onStatement('rank_snapshots', 'insert', 'rank', { kind: 'rank' })
  await onStatement('admin_changes', 'insert or update', 'console', { kind: 'change' })

  // A change of what the platform pays or takes, announced (scheduled) or applied (migration 0020-economics): the
  // notices screen lists them.
  await sql`
    create trigger live_economic_notices after insert or update of status on admin_changes for each row
    when (new.effective_at is not null) execute function live_statement('notice', '{"kind":"content"}')`.execute(db)

  // A proof-of-liabilities root published on chain.
  await sql`
    create function live_liabilities() returns trigger language plpgsql as $$
    begin
      perform live_publish('liabilities', jsonb_build_object('kind', 'root', 'id', new.id::text));
      return null;
    end $$`.execute(db)
  await sql`
    create trigger live_liabilities after update of status on liability_snapshots for each row
    when (new.status = 'published' and old.status is distinct from 'published') execute function live_liabilities()`.execute(
    db,
  )

  // A job that starts or stops failing (not every pass: the passes themselves are the console's safety refresh).
  await sql`
    create function live_job() returns trigger language plpgsql as $$
    begin
      perform live_publish('console', jsonb_build_object('kind', 'job', 'name', new.name));
      return null;
    end $$`.execute(db)
  await sql`create trigger live_job_added after insert on job_heartbeats for each row execute function live_job()`.execute(
    db,
  )
  await sql`
    create trigger live_job_changed after update of last_error on job_heartbeats for each row
    when ((new.last_error is null) <> (old.last_error is null)) execute function live_job()`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const triggers: [string, string][] = [
    ['live_balance', 'ledger_accounts'],
    ['live_withdrawal', 'withdrawals'],
    ['live_intent', 'payment_intents'],
    ['live_team', 'users'],
    ['live_notices', 'notices'],
    ['live_notice_translations', 'notice_translations'],
    ['live_banners', 'banners'],
    ['live_banner_translations', 'banner_translations'],
    ['live_config_versions', 'config_versions'],
    ['live_asset_versions', 'asset_versions'],
    ['live_rank_snapshots', 'rank_snapshots'],
    ['live_admin_changes', 'admin_changes'],
    ['live_economic_notices', 'admin_changes'],
    ['live_liabilities', 'liability_snapshots'],
    ['live_job_added', 'job_heartbeats'],
    ['live_job_changed', 'job_heartbeats'],
  ]
  for (const [trigger, table] of triggers) await sql.raw(`drop trigger ${trigger} on ${table}`).execute(db)
  await sql`drop table live_outbox`.execute(db)
  await sql`drop table live_topics`.execute(db)
  for (const fn of [
    'live_balance',
    'live_withdrawal',
    'live_intent',
    'live_team',
    'live_statement',
    'live_liabilities',
    'live_job',
    'live_sequence',
  ])
    await sql.raw(`drop function ${fn}()`).execute(db)
  await sql`drop function live_publish(text, jsonb)`.execute(db)
}
