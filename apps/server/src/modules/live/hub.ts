// The live channel's hub in this process (docs/architecture.md "Live updates"): who is subscribed to which topic here,
// and the delivery of the outbox's rows to them. Every instance hears the NOTIFY of every commit on a topic that some
// instance listens to (each counts itself in while it has subscribers; only row ids travel), reads the rows and sends
// each topic's events in sequence order; a hole in a topic's numbers (a notification lost while the listening
// connection was down, rows read out of order) is filled from the outbox before anything after it is sent, and when
// the outbox no longer has the rows, the subscribers are told to take a snapshot.
import type { LiveTopic } from '@solpledge/contract'
import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import type { Database } from '../../db/index.ts'
import { LIVE_BUCKETS_KEY, liveBucket } from '../../db/migrations/0033-live-unheard.ts'
import { type Listener, listen } from '../../db/notify.ts'
import type { LiveMetrics } from './metrics.ts'

/** The NOTIFY channel of migration 0024-live. */
export const LIVE_CHANNEL = 'live'

/** A connection, as the hub sends to it. */
export interface Subscriber {
  /** Sends a prepared message. */
  send(text: string): void
}

interface Subscription {
  clientTopic: LiveTopic
  /** The last sequence number sent (or covered by the snapshot the client takes). */
  seq: number
  /** Events that arrived while the subscription was being set up. */
  buffer: { seq: number; text: string }[] | null
}

interface TopicState {
  /** The last sequence number delivered here; null until the first subscription has read it. */
  last: number | null
  subs: Map<Subscriber, Subscription>
  /**
   * This instance counted among the topic's listeners (`live_topics.listeners`, migration 0031-live-numbered): a
   * commit on a topic no instance listens to sends no NOTIFY. Settled before the topic's current number is read.
   */
  listening: Promise<void> | null
}

interface OutboxRow {
  topic: string
  seq: string
  payload: string
  committed_at: Date
}

/** The name a client knows an outbox topic by: every user's own topic is `user`. */
export const clientTopicOf = (topic: string): LiveTopic => (topic.startsWith('user:') ? 'user' : topic) as LiveTopic

const eventText = (topic: LiveTopic, seq: number, payload: string) =>
  `{"type":"event","topic":${JSON.stringify(topic)},"seq":${seq},"data":${payload}}`
export const subscribedText = (topic: LiveTopic, seq: number, resumed: boolean) =>
  JSON.stringify({ type: 'subscribed', topic, seq, resumed })

/**
 * Counts one more instance among the listeners of `topic`, holding the topic's bucket exclusively (migration
 * 0033-live-unheard): a transaction that found the topic unheard, and so wrote no balance message to it, holds the
 * bucket until it has committed, so the number read next covers it; every balance change after the count is written.
 */
export async function countListener(db: Database, topic: string) {
  await sql`
    insert into live_topics as t (topic, seq, listeners)
    select ${topic}, 0, 1 from (select pg_advisory_xact_lock(${LIVE_BUCKETS_KEY}, ${liveBucket(topic)})) b
    on conflict (topic) do update set listeners = t.listeners + 1`.execute(db)
}

/**
 * Counts one instance fewer among the listeners of `topic`. When it was the last, a user's topic has its number moved
 * on by one, with no row (migration 0033-live-unheard): its balance messages are no longer written, and a client
 * resuming from before finds the hole and takes a snapshot.
 */
export async function uncountListener(db: Database, topic: string) {
  await sql`
    update live_topics set listeners = listeners - 1, seq = seq + (listeners = 1 and topic like 'user:%')::int
    where topic = ${topic} and listeners > 0`.execute(db)
}

/** Id ranges of one query at most: a burst of commits is read in a few queries, not one each. */
const MAX_RANGES = 512

export class LiveHub {
  private readonly topics = new Map<string, TopicState>()
  private ranges: [string, string][] = []
  private catchUpWanted = false
  private draining: Promise<void> | null = null
  private listener: Listener | null = null
  private retryTimer: NodeJS.Timeout | undefined
  private stopped = false

  constructor(
    private readonly db: Database,
    private readonly metrics: LiveMetrics,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts listening (resolves once LISTEN is in place, or the first attempt failed and retries are scheduled). */
  async start() {
    this.listener = await listen(this.db, LIVE_CHANNEL, {
      onNotify: (payload) => this.onNotify(payload),
      onListening: () => this.catchUp(),
      onError: (error) => this.log.warn({ err: error.message }, 'live: the listening connection broke; reconnecting'),
    })
  }

  async stop() {
    this.stopped = true
    clearTimeout(this.retryTimer)
    const topics = [...this.topics.entries()]
    this.topics.clear()
    await Promise.all(topics.map(([topic, state]) => this.unlisten(topic, state)))
    await this.listener?.close()
    await this.draining
  }

  /** Topics with subscribers here, and how many subscriptions. */
  get size() {
    let subscriptions = 0
    for (const state of this.topics.values()) subscriptions += state.subs.size
    return { topics: this.topics.size, subscriptions }
  }

  /**
   * Subscribes `subscriber` to `topic` (as the outbox names it). Answers `subscribed` and then, if `since` is given and
   * the outbox still holds every event after it, those events (`resumed`); otherwise the client takes a snapshot and
   * gets the events after the current number.
   */
  async subscribe(subscriber: Subscriber, topic: string, since: number | undefined) {
    const clientTopic = clientTopicOf(topic)
    let state = this.topics.get(topic)
    if (!state) {
      state = { last: null, subs: new Map(), listening: null }
      this.topics.set(topic, state)
    }
    const sub: Subscription = { clientTopic, seq: 0, buffer: [] }
    state.subs.set(subscriber, sub)
    try {
      // Counted as a listener first: a commit numbered before that, or that found the topic unheard, has committed by
      // then (the count waits for the topic's counter and its bucket, which a committing transaction holds until its
      // COMMIT; countListener), so the number read next covers it; every commit after it writes its messages and
      // sends a NOTIFY.
      if (!state.listening) {
        const listening = this.listen(topic)
        state.listening = listening
        listening.catch(() => {
          if (state.listening === listening) state.listening = null
        })
      }
      await state.listening
      const current = await this.currentSeq(topic)
      let replay: OutboxRow[] | null = null
      if (since !== undefined && since <= current) {
        const rows = since === current ? [] : await this.rowsAfter(topic, since, current)
        if (rows.length === current - since) replay = rows
      }
      if (state.subs.get(subscriber) !== sub) return
      const buffered = sub.buffer ?? []
      sub.buffer = null
      if (state.last === null) state.last = Math.max(current, ...buffered.map((event) => event.seq))
      sub.seq = replay ? (since as number) : current
      subscriber.send(subscribedText(clientTopic, sub.seq, replay !== null))
      for (const row of replay ?? [])
        this.sendTo(subscriber, sub, Number(row.seq), eventText(clientTopic, Number(row.seq), row.payload))
      for (const event of buffered) this.sendTo(subscriber, sub, event.seq, event.text)
    } catch (error) {
      this.unsubscribe(subscriber, topic)
      throw error
    }
  }

  unsubscribe(subscriber: Subscriber, topic: string) {
    const state = this.topics.get(topic)
    if (!state) return
    state.subs.delete(subscriber)
    if (state.subs.size === 0) {
      this.topics.delete(topic)
      void this.unlisten(topic, state)
    }
  }

  /** Counts this instance among the listeners of `topic`. */
  private async listen(topic: string) {
    await countListener(this.db, topic)
  }

  /**
   * Takes this instance's count off a topic it stopped listening to. When that fails (the database is unreachable)
   * the count stays: commits on the topic keep sending a NOTIFY nobody needs, never the reverse.
   */
  private async unlisten(topic: string, state: TopicState) {
    const listening = state.listening
    state.listening = null
    try {
      const counted = listening
        ? await listening.then(
            () => true,
            () => false,
          )
        : false
      if (!counted) return
      await uncountListener(this.db, topic)
    } catch (error) {
      this.log.warn({ err: (error as Error).message, topic }, 'live: could not stop listening to a topic')
    }
  }

  private sendTo(subscriber: Subscriber, sub: Subscription, seq: number, text: string) {
    if (sub.buffer) {
      sub.buffer.push({ seq, text })
      return
    }
    if (seq <= sub.seq) return
    sub.seq = seq
    subscriber.send(text)
    this.metrics.messages.inc({ topic: sub.clientTopic })
  }

  private async currentSeq(topic: string): Promise<number> {
    const row = await this.db.selectFrom('live_topics').select('seq').where('topic', '=', topic).executeTakeFirst()
    return Number(row?.seq ?? 0)
  }

  /** The events of `topic` numbered from after `after` through `through`, in order. */
  private async rowsAfter(topic: string, after: number, through: number): Promise<OutboxRow[]> {
    const { rows } = await sql<OutboxRow>`
      select topic, seq, payload::text as payload, committed_at from live_outbox
      where topic = ${topic} and seq > ${after} and seq <= ${through} order by seq`.execute(this.db)
    return rows
  }

  private onNotify(payload: string) {
    const match = /^(\d+)-(\d+)$/.exec(payload)
    if (!match) return
    this.ranges.push([match[1] as string, match[2] as string])
    this.kick()
  }

  /** After (re)connecting: whatever was committed meanwhile is read by number. */
  private catchUp() {
    this.catchUpWanted = true
    this.kick()
  }

  private kick() {
    if (this.draining || this.stopped) return
    this.draining = this.drain().finally(() => {
      this.draining = null
      if ((this.ranges.length > 0 || this.catchUpWanted) && !this.retryTimer) this.kick()
    })
  }

  private async drain() {
    while (!this.stopped && (this.ranges.length > 0 || this.catchUpWanted)) {
      try {
        if (this.catchUpWanted) {
          this.catchUpWanted = false
          await this.fillAll()
        }
        const ranges = this.ranges.splice(0, MAX_RANGES)
        if (ranges.length === 0) continue
        if (this.topics.size === 0) continue
        const { rows } = await sql<OutboxRow>`
          select o.topic, o.seq, o.payload::text as payload, o.committed_at
          from unnest(${ranges.map((r) => r[0])}::bigint[], ${ranges.map((r) => r[1])}::bigint[]) as r(first, last)
          join live_outbox o on o.id between r.first and r.last
          where o.seq is not null
          order by o.topic, o.seq`.execute(this.db)
        const now = Date.now()
        for (const row of rows) this.metrics.notifyLag.observe(Math.max(0, now - row.committed_at.getTime()) / 1000)
        await this.deliver(rows)
      } catch (error) {
        // The database is unreachable: read everything by number once it answers again.
        this.log.warn({ err: (error as Error).message }, 'live: could not read the outbox; retrying')
        this.catchUpWanted = true
        await new Promise<void>((resolve) => {
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined
            resolve()
          }, 1_000)
        })
      }
    }
  }

  /** Sends rows (sorted by topic, then number) to the subscribers of their topics, filling holes first. */
  private async deliver(rows: OutboxRow[]) {
    for (const row of rows) {
      const state = this.topics.get(row.topic)
      if (!state) continue
      const seq = Number(row.seq)
      if (state.last === null) {
        // Every subscription is still being set up: they keep it until they know where they start.
        for (const [subscriber, sub] of state.subs)
          this.sendTo(subscriber, sub, seq, eventText(sub.clientTopic, seq, row.payload))
        continue
      }
      if (seq <= state.last) continue
      if (seq > state.last + 1) await this.fill(row.topic, state, seq - 1)
      this.deliverRow(state, seq, row.payload)
    }
  }

  private deliverRow(state: TopicState, seq: number, payload: string) {
    state.last = seq
    let text: string | null = null
    for (const [subscriber, sub] of state.subs) {
      text ??= eventText(sub.clientTopic, seq, payload)
      this.sendTo(subscriber, sub, seq, text)
    }
  }

  /** Delivers what `topic` numbered after the last delivered, through `through`; a snapshot when it is gone. */
  private async fill(topic: string, state: TopicState, through: number) {
    const after = state.last as number
    const rows = await this.rowsAfter(topic, after, through)
    if (rows.length === through - after) {
      for (const row of rows) this.deliverRow(state, Number(row.seq), row.payload)
      return
    }
    this.metrics.resets.inc()
    state.last = through
    for (const [subscriber, sub] of state.subs) {
      if (sub.buffer) continue
      sub.seq = through
      subscriber.send(subscribedText(sub.clientTopic, through, false))
    }
  }

  /** Every topic with subscribers brought up to its current number. */
  private async fillAll() {
    const known = [...this.topics.entries()].filter(([, state]) => state.last !== null)
    if (known.length === 0) return
    const current = await this.db
      .selectFrom('live_topics')
      .select(['topic', 'seq'])
      .where(
        'topic',
        'in',
        known.map(([topic]) => topic),
      )
      .execute()
    for (const row of current) {
      const state = this.topics.get(row.topic)
      if (state?.last != null && Number(row.seq) > state.last) await this.fill(row.topic, state, Number(row.seq))
    }
  }
}
