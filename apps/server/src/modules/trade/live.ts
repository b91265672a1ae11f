// What a batch of the market publishes on the live channel (docs/architecture.md "Live updates"), in the batch's
// transaction: the book's best levels and the trades to everyone (topic market), each changed order to its owner.
import { LIVE_BOOK_DEPTH } from '@solpledge/contract'
import type { Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { type Publication, publishMany } from '../live/index.ts'
import type { Batch } from './batch.ts'
import type { Side } from './engine.ts'
import { presentOrder } from './service.ts'

export async function publishBatch(trx: Transaction<DB>, batch: Batch, baseDecimals: number) {
  const levels = (side: Side) =>
    batch.book
      .depth(side, LIVE_BOOK_DEPTH)
      .map((level) => ({ price: level.price.toString(), amount: level.amount.toString(), orders: level.orders }))
  const publications: Publication[] = [
    {
      topic: 'market',
      event: {
        kind: 'book',
        best_bid: batch.book.bestBid()?.toString() ?? null,
        best_ask: batch.book.bestAsk()?.toString() ?? null,
        bids: levels('buy'),
        asks: levels('sell'),
        trades: batch.fills.map((fill) => ({
          id: `${fill.maker.id}-${fill.taker.id}`,
          price: fill.price.toString(),
          amount: fill.amount.toString(),
          quote: fill.quote.toString(),
          side: fill.taker.side,
          time: batch.time.getTime(),
        })),
      },
    },
  ]
  for (const order of [...batch.created, ...batch.changed])
    publications.push({
      topic: `user:${order.userId}`,
      event: { kind: 'order', order: presentOrder(order, baseDecimals) },
    })
  await publishMany(trx, publications)
}
