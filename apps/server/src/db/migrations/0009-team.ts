import { type Kysely, sql } from 'kysely'

/**
 * The referral tree at scale and the monthly ranking (docs/architecture.md, "Referral tree").
 *
 * Team figures are maintained ancestor aggregates in user_power (0007): every change adds to the user's row and to
 * the row of every ancestor, so a leader's figures are one primary-key read. This migration adds:
 *
 * - users.depth and users.ancestors, the *ancestor segment*: the user's ancestors from the parent up to and including
 *   the nearest ancestor whose depth is a multiple of 32 (an anchor; the root, depth 0, is one). The whole ancestry of
 *   a user is its segment, then the anchor's segment, and so on: a walk up a 10,000-deep chain reads 313 rows instead
 *   of 10,000. A BEFORE INSERT trigger fills both from the parent (whatever inserts the user), and binding is
 *   permanent: changing parent_id, depth or ancestors is refused.
 * - user_power.team_count (members in the whole downline) and direct_count (direct members), maintained when a user
 *   binds (modules/team/service.ts bindMember), with a row for every user.
 * - rank_snapshots and rank_entries: the monthly ranking, recomputed on a schedule (modules/rank).
 */
export const SEGMENT = 32

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('depth', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ancestors', sql`bigint[]`, (c) => c.notNull().defaultTo(sql`'{}'::bigint[]`))
    .execute()
  // Existing users, top down from the roots.
  await sql`
    with recursive placed(id, depth, ancestors) as (
      select id, 0, '{}'::bigint[] from users where parent_id is null
      union all
      select u.id, p.depth + 1,
        case when p.depth % ${sql.lit(SEGMENT)} = 0 then array[p.id] else array[p.id] || p.ancestors end
      from placed p join users u on u.parent_id = p.id
    )
    update users set depth = placed.depth, ancestors = placed.ancestors from placed where users.id = placed.id`.execute(
    db,
  )

  await sql`
    create function users_place_in_tree() returns trigger language plpgsql as $$
    declare
      parent_depth integer;
      parent_ancestors bigint[];
    begin
      if new.parent_id is null then
        new.depth := 0;
        new.ancestors := '{}';
        return new;
      end if;
      select depth, ancestors into parent_depth, parent_ancestors from users where id = new.parent_id;
      if not found then
        raise foreign_key_violation using message = 'users.parent_id ' || new.parent_id || ' does not exist';
      end if;
      new.depth := parent_depth + 1;
      new.ancestors := case when parent_depth % ${sql.lit(SEGMENT)} = 0 then array[new.parent_id]
        else array[new.parent_id] || parent_ancestors end;
      return new;
    end $$`.execute(db)
  await sql`
    create trigger users_place_in_tree before insert on users
    for each row execute function users_place_in_tree()`.execute(db)
  await sql`
    create function users_binding_permanent() returns trigger language plpgsql as $$
    begin
      if new.parent_id is distinct from old.parent_id or new.depth <> old.depth or new.ancestors <> old.ancestors then
        raise exception 'a referral binding is permanent (user %)', old.id;
      end if;
      return new;
    end $$`.execute(db)
  await sql`
    create trigger users_binding_permanent before update of parent_id, depth, ancestors on users
    for each row execute function users_binding_permanent()`.execute(db)

  await db.schema
    .alterTable('user_power')
    .addColumn('team_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('direct_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`insert into user_power (user_id) select id from users order by id on conflict do nothing`.execute(db)
  await sql`
    update user_power p set direct_count = c.n
    from (select parent_id, count(*) as n from users where parent_id is not null group by parent_id) c
    where p.user_id = c.parent_id`.execute(db)
  await sql`
    with recursive seg(anc) as (
      select ancestors from users where cardinality(ancestors) > 0
      union all
      select a.ancestors from seg join users a on a.id = seg.anc[cardinality(seg.anc)] where cardinality(a.ancestors) > 0
    )
    update user_power p set team_count = c.n
    from (select x.id, count(*) as n from seg, unnest(seg.anc) as x(id) group by x.id) c
    where p.user_id = c.id`.execute(db)

  // One snapshot per (month, type) and computation; the newest of a month is the one shown. Computations take an
  // advisory lock and check that the newest is due first, so two instances never compute the same interval twice.
  // The unique key also finds the newest of a (month, type).
  await db.schema
    .createTable('rank_snapshots')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('month', 'date', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('computed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('next_at', 'timestamptz', (c) => c.notNull())
    .addColumn('entries', 'integer', (c) => c.notNull())
    .addCheckConstraint('rank_snapshots_type', sql`type in ('direct', 'team')`)
    .addCheckConstraint('rank_snapshots_month', sql`extract(day from month) = 1`)
    .addUniqueConstraint('rank_snapshots_once', ['month', 'type', 'computed_at'])
    .execute()
  // Every user with new power in the month, ranked: the top 30 by (snapshot_id, rank), anyone's own position by key.
  await db.schema
    .createTable('rank_entries')
    .addColumn('snapshot_id', 'bigint', (c) => c.notNull().references('rank_snapshots.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('power', sql`numeric(38, 0)`, (c) => c.notNull())
    .addColumn('reached_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('rank_entries_pk', ['snapshot_id', 'user_id'])
    .execute()
  await db.schema.createIndex('rank_entries_rank_idx').on('rank_entries').columns(['snapshot_id', 'rank']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rank_entries').execute()
  await db.schema.dropTable('rank_snapshots').execute()
  await db.schema.alterTable('user_power').dropColumn('team_count').dropColumn('direct_count').execute()
  await sql`drop trigger users_binding_permanent on users`.execute(db)
  await sql`drop function users_binding_permanent()`.execute(db)
  await sql`drop trigger users_place_in_tree on users`.execute(db)
  await sql`drop function users_place_in_tree()`.execute(db)
  await db.schema.alterTable('users').dropColumn('depth').dropColumn('ancestors').execute()
}
