// Publishing to the live channel (docs/architecture.md "Live updates"): a row of the outbox, written in the transaction
// that makes the change, so a message exists exactly when its change committed. Numbers and the NOTIFY that wakes the
// instances come at COMMIT (migration 0024-live). Tables that many code paths write (balances, withdrawals, payment
// intents, the content, the configuration) publish through triggers of that migration instead.
import type { LiveEvent, LiveEvents } from '@solpledge/contract'
import { sql, type Transaction } from 'kysely'
import type { Database } from '../../db/index.ts'
import type { DB } from '../../db/schema.ts'

type Topic = keyof typeof LiveEvents
/** The topic as the outbox names it: a user's own is `user:<id>`. */
export type OutboxTopic = Exclude<Topic, 'user'> | `user:${string}`
type EventOf<T extends OutboxTopic> = T extends `user:${string}` ? LiveEvent<'user'> : LiveEvent<T & Topic>

export interface Publication<T extends OutboxTopic = OutboxTopic> {
  topic: T
  event: EventOf<T>
}

/** Publishes `event` on `topic` when `trx` commits (nothing when it rolls back). */
export function publish<T extends OutboxTopic>(trx: Transaction<DB> | Database, topic: T, event: EventOf<T>) {
  return publishMany(trx, [{ topic, event } as Publication])
}

/** Several events in one statement, in their order. */
export async function publishMany(trx: Transaction<DB> | Database, publications: Publication[]) {
  if (publications.length === 0) return
  await sql`
    insert into live_outbox (topic, payload)
    select topic, payload::jsonb
    from unnest(${publications.map((p) => p.topic)}::text[], ${publications.map((p) => JSON.stringify(p.event))}::text[])
      with ordinality as p(topic, payload, n)
    order by n`.execute(trx)
}

/**
 * Deletes the outbox's rows older than `minutes` (LIVE_RETENTION_MINUTES): a client that comes back later than that
 * takes a snapshot instead of resuming. The topics' numbers stay in live_topics.
 *
 * By id, as the outbox has no index on `created_at` (migration 0031-live-numbered): the rows before the first one
 * written within the retention, found walking the primary key from the oldest (the rows to delete), are older than
 * it; a row after it written by a transaction that began earlier stays until the next pass past it.
 */
export async function purgeOutbox(db: Database, minutes: number) {
  await sql`
    delete from live_outbox
    where seq is not null and id < coalesce(
      (select o.id from live_outbox o where o.created_at >= now() - ${minutes}::float8 * interval '1 minute'
        order by o.id limit 1),
      (select max(o.id) + 1 from live_outbox o))`.execute(db)
}
