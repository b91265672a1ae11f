import { type Kysely, sql } from 'kysely'

/**
 * Cheaper team-figure writes (docs/architecture.md, "Referral tree"): a change deep in the tree updates one user_power
 * row per ancestor, so
 *
 * - every user has a user_power row from the moment it exists (a statement-level trigger adds the rows of inserted
 *   users, whatever inserts them), and a change can be a plain UPDATE of existing rows rather than an upsert;
 * - user_power pages are kept half empty, so those updates stay on their page (HOT updates: no index entry per update).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`insert into user_power (user_id) select id from users order by id on conflict do nothing`.execute(db)
  await sql`
    create function users_power_rows() returns trigger language plpgsql as $$
    begin
      insert into user_power (user_id) select id from added order by id on conflict do nothing;
      return null;
    end $$`.execute(db)
  await sql`
    create trigger users_power_rows after insert on users referencing new table as added
    for each statement execute function users_power_rows()`.execute(db)
  await sql`alter table user_power set (fillfactor = 50)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_power reset (fillfactor)`.execute(db)
  await sql`drop trigger users_power_rows on users`.execute(db)
  await sql`drop function users_power_rows()`.execute(db)
}
