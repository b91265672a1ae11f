import { type Kysely, sql } from 'kysely'

/**
 * A ledger transfer in one statement (modules/ledger/service.ts `transfer`, docs/money.md): `ledger_transfer(...)`
 * does in the server what `transfer` did in four statements — insert the transfer under its idempotency key
 * (`on conflict do nothing`), or return the stored one for the caller to compare; otherwise move the two balances,
 * lower account id first, each update hitting exactly one account of the asset — and returns the transaction's id
 * (`commit_xid`), which spares the tracked connection its own read before COMMIT (db/transient.ts). One round trip
 * instead of four, and plans cached per session by PL/pgSQL.
 *
 * A user account going negative fails the update with the CHECK constraint `ledger_accounts_user_balance_nonnegative`
 * as before (the caller answers 'insufficient balance'); an account that is missing or of another asset raises
 * SQLSTATE LA001. Both leave the transfer's row written: the caller's transaction must roll back, as before. The
 * function is VOLATILE, so under read committed its statements each take a new snapshot: a transfer of the same key
 * that a concurrent transaction committed while the insert waited for it is found by the SELECT that follows, as the
 * separate SELECT found it before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ledger_transfer(
      p_key text, p_type text, p_asset text, p_debit bigint, p_credit bigint, p_amount numeric, p_reference text
    ) returns table (
      id text, created boolean, debit_account_id text, credit_account_id text, asset text, amount text, type text,
      commit_xid text
    ) language plpgsql volatile as $$
    declare
      v_id bigint;
      v_account bigint;
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
      -- Row locks in account id order, so concurrent transfers between the same accounts never deadlock.
      foreach v_account in array
        case when p_debit < p_credit then array[p_debit, p_credit] else array[p_credit, p_debit] end
      loop
        update ledger_accounts a
           set balance = a.balance + case when v_account = p_debit then -p_amount else p_amount end
         where a.id = v_account and a.asset = p_asset;
        if not found then
          raise exception 'ledger: account % is not a % account', v_account, p_asset using errcode = 'LA001';
        end if;
      end loop;
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function ledger_transfer(text, text, text, bigint, bigint, numeric, text)`.execute(db)
}
