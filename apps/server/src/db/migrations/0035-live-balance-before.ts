import { type Kysely, sql } from 'kysely'
import { LIVE_BUCKETS_KEY, unheardBalance } from './0033-live-unheard.ts'

/**
 * A balance change nobody listens to queues nothing for COMMIT (docs/architecture.md "Live updates", docs/benchmarks.md
 * "bench/ledger"). Until now the COMMIT's numbering (`live_sequence`, a deferred constraint trigger) was queued for
 * every balance change made while the transaction had no pending message yet: the trigger's condition was read as the
 * row changed, before the balance trigger had decided whether anybody listens. So a transfer between two users not in
 * the app queued it twice, and ran it twice at COMMIT, for nothing (about 7 µs of the cluster's 80 µs per transfer,
 * measured in a loop of committed transfers).
 *
 * Now the balance trigger runs BEFORE the row changes (it sees the row as it will be written: the update has locked it
 * and read its latest version), so its decision is made by the time the COMMIT trigger's condition is read: that
 * trigger is queued only for the change that made the transaction's first pending message (the setting `live.first`
 * names its account), once. What is published, its order and its numbers are unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // 0033-live-unheard's, returning the row (a BEFORE trigger that returned null would skip the update) and marking the
  // account of the transaction's first pending message.
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
          return new;
        end if;
      end if;
      pending := nullif(current_setting('live.pending', true), '');
      if pending is null then perform set_config('live.first', new.id::text, true); end if;
      if pending is null or length(pending) < 8000 then
        perform set_config('live.pending', coalesce(pending || ',', '') || jsonb_build_array(
          nextval('live_outbox_id_seq'::regclass), v_topic, jsonb_build_object(
            'kind', 'balance', 'coin', new.asset, 'account', new.kind, 'balance', new.balance::text))::text, true);
      else
        insert into live_outbox (topic, payload) values (v_topic, jsonb_build_object(
          'kind', 'balance', 'coin', new.asset, 'account', new.kind, 'balance', new.balance::text));
      end if;
      return new;
    end $$`.execute(db)
  await sql`drop trigger live_balance on ledger_accounts`.execute(db)
  await sql`drop trigger live_balance_sequence on ledger_accounts`.execute(db)
  await sql`
    create trigger live_balance before update of balance on ledger_accounts for each row
    when (new.user_id is not null and new.balance is distinct from old.balance
      and current_setting('live.balance', true) is distinct from 'off')
    execute function live_balance()`.execute(db)
  // Read after the balance trigger ran for the row: true only for the change that made the first pending message (a
  // second change of that account in the transaction queues it again, and live_sequence runs once per transaction).
  await sql`
    create constraint trigger live_balance_sequence after update of balance on ledger_accounts
    deferrable initially deferred for each row
    when (new.user_id is not null and current_setting('live.first', true) = new.id::text
      and current_setting('live.balance', true) is distinct from 'off')
    execute function live_sequence()`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The triggers first: 0033's function returns null, which a BEFORE trigger would take for "skip the update".
  await sql`drop trigger live_balance on ledger_accounts`.execute(db)
  await sql`drop trigger live_balance_sequence on ledger_accounts`.execute(db)
  await unheardBalance(db)
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
