import { type Kysely, sql } from 'kysely'
import { up as ledgerTransfer } from './0029-ledger-transfer.ts'

/**
 * A ledger transfer moves its two balances in one UPDATE instead of two (docs/money.md, docs/benchmarks.md
 * "bench/ledger"): `ledger_transfer` (migration 0029-ledger-transfer) ran an UPDATE per account, lower account id
 * first; one statement for both saves an executor run and its checks, about 17 µs of the cluster's 72–89 µs per
 * transfer in a loop of committed transfers.
 *
 * What stays: the accounts are still locked lower id first, so concurrent transfers between the same accounts never
 * deadlock. The statement finds them by `id = any(array[…])` on the primary key, which a B-tree index scan reads in
 * ascending key order; sequential and bitmap scans (physical order) are switched off for the function, so no plan can
 * take another order whatever the table's size and statistics. An account that is missing or of another asset still
 * raises LA001 (the statement then updated fewer than two rows), and a user account going negative still fails the
 * CHECK constraint; the two accounts are never the same one (the transfer's CHECK `ledger_transfers_distinct_accounts`
 * refuses that before).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function ledger_transfer(
      p_key text, p_type text, p_asset text, p_debit bigint, p_credit bigint, p_amount numeric, p_reference text
    ) returns table (
      id text, created boolean, debit_account_id text, credit_account_id text, asset text, amount text, type text,
      commit_xid text
    ) language plpgsql volatile as $$
    declare
      v_id bigint;
      v_rows integer;
    begin
      insert into ledger_transfers as t
        (idempotency_key, type, asset, debit_account_id, credit_account_id, amount, reference)
      values (p_key, p_type, p_asset, p_debit, p_credit, p_amount, p_reference)
      on conflict (idempotency_key) do nothing
      returning t.id into v_id;
      if v_id is null then
        select t.id::text, false, t.debit_account_id::text, t.credit_account_id::text, t.asset, t.amount::text,
               t.type, txid_current_if_assigned()::text
          into id, created, debit_account_id, credit_account_id, asset, amount, type, commit_xid
          from ledger_transfers t where t.idempotency_key = p_key;
        if found then return next; end if;
        return;
      end if;
      -- Both balances, row locks in account id order (an index scan of the primary key: see the settings below).
      update ledger_accounts a
         set balance = a.balance + case when a.id = p_debit then -p_amount else p_amount end
       where a.id = any(array[p_debit, p_credit]) and a.asset = p_asset;
      get diagnostics v_rows = row_count;
      if v_rows <> 2 then
        raise exception 'ledger: account % or % is not a % account', p_debit, p_credit, p_asset using errcode = 'LA001';
      end if;
      id := v_id::text;
      created := true;
      debit_account_id := p_debit::text;
      credit_account_id := p_credit::text;
      asset := p_asset;
      amount := p_amount::text;
      type := p_type;
      commit_xid := txid_current()::text;
      return next;
    end $$`.execute(db)
  // The accounts read by the primary key's index, in key order, by every plan.
  await sql`
    alter function ledger_transfer(text, text, text, bigint, bigint, numeric, text)
      set enable_seqscan = off set enable_bitmapscan = off`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ledger_transfer(text, text, text, bigint, bigint, numeric, text)`.execute(db)
  await ledgerTransfer(db)
}
