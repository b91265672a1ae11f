// The live outbox's numbers (live_sequence at COMMIT: migrations 0030-live-cheaper and 0031-live-numbered): the rows a
// transaction published get the next numbers of their topics, in id order, with no gap or repeat, however many rows and
// topics it wrote and however many transactions commit at once; a topic's counter ends at its last number.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/index.ts'
import { type Publication, publishMany } from '../src/modules/live/publish.ts'
import { dbKind, freshDatabase } from './helpers.ts'

describe(`live outbox numbering (${dbKind})`, () => {
  let db: Database
  let drop: () => Promise<void>
  beforeAll(async () => {
    ;({ db, drop } = await freshDatabase())
  })
  afterAll(() => drop())

  const topics = ['user:1', 'console', 'user:22', 'user:3']
  /** `count` publications over the topics, interleaved, in one transaction. */
  const publishInOne = (count: number, tag: string) =>
    db.transaction().execute((trx) =>
      publishMany(
        trx,
        Array.from(
          { length: count },
          (_, i) => ({ topic: topics[i % topics.length], event: { kind: 'job', name: `${tag}-${i}` } }) as Publication,
        ),
      ),
    )

  /**
   * Each topic's numbers are 1..n with no gap or repeat (in commit order: transactions committing at once may take
   * them in another order than their ids), and one transaction's rows of a topic are numbered in id order.
   */
  async function check() {
    const { rows } = await sql<{ id: string; topic: string; seq: string | null; tag: string }>`
      select o.id::text as id, o.topic, o.seq::text as seq, split_part(o.payload->>'name', '-', 1) as tag
        from live_outbox o order by o.id`.execute(db)
    expect(rows.every((row) => row.seq !== null)).toBe(true)
    for (const topic of topics) {
      const mine = rows.filter((row) => row.topic === topic)
      const seqs = mine.map((row) => Number(row.seq))
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs.map((_, i) => i + 1))
      for (const tag of new Set(mine.map((row) => row.tag))) {
        const ofTag = mine.filter((row) => row.tag === tag).map((row) => Number(row.seq))
        expect(ofTag).toEqual([...ofTag].sort((a, b) => a - b))
      }
      const counter = await db.selectFrom('live_topics').select('seq').where('topic', '=', topic).executeTakeFirst()
      expect(Number(counter?.seq ?? 0)).toBe(seqs.length)
    }
  }

  it('numbers a few rows, then many (past any small-batch path), then a few again, each topic without a gap', async () => {
    await publishInOne(2, 'a')
    await check()
    await publishInOne(301, 'b')
    await check()
    await publishInOne(5, 'c')
    await check()
  })

  it('numbers transactions that commit at once without a gap or a repeat', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => publishInOne(3 + i, `d${i}`)))
    await check()
  })
})
