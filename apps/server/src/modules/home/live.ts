// The figures trades change, published on the live channel after a batch that traded (docs/architecture.md "Live
// updates"): the market with its 24 h figures (topic market) and the valuation price (topic home). They are read
// after the batch's commit, at most once a second per instance, in a transaction of their own: derived figures, so a
// crash in between loses nothing that the next trade or the clients' slow safety refresh does not bring back.
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/index.ts'
import { getBusinessConfig } from '../config/index.ts'
import { publishMany } from '../live/index.ts'
import { freshValuation, marketInfo, type TradeMarket } from '../trade/index.ts'
import { homePrice } from './service.ts'

/** At most one publication of the figures per this many ms (per instance). */
export const FIGURES_INTERVAL_MS = 1_000

/** What TradeMarket.onTraded calls, and `settled()`: resolves once no publication is due or running any more. */
export type FiguresPublisher = (() => void) & { settled: () => Promise<void> }

/** Publishes the market's figures and the home price after trades; returns what TradeMarket.onTraded calls. */
export function publishFiguresAfterTrades(db: Database, market: TradeMarket, log: FastifyBaseLogger): FiguresPublisher {
  let running = false
  let wanted = false
  let last = 0
  let timer: NodeJS.Timeout | undefined
  let current: Promise<void> = Promise.resolve()
  const run = async () => {
    running = true
    wanted = false
    last = Date.now()
    try {
      await freshValuation(db, market.symbol, await getBusinessConfig(db))
      const [info, price] = await Promise.all([marketInfo(market), homePrice(db, market.symbol)])
      await db.transaction().execute((trx) =>
        publishMany(trx, [
          { topic: 'market', event: { kind: 'figures', market: info } },
          { topic: 'home', event: { kind: 'price', price } },
        ]),
      )
    } catch (error) {
      log.warn({ err: error }, 'live: the market figures could not be published')
    } finally {
      running = false
      if (wanted) schedule()
    }
  }
  const schedule = () => {
    wanted = true
    if (running || timer) return
    timer = setTimeout(
      () => {
        timer = undefined
        current = run()
      },
      Math.max(0, last + FIGURES_INTERVAL_MS - Date.now()),
    )
    timer.unref()
  }
  // A publication due is run at once rather than waited for (the tests that stop trades from publishing wait here).
  const settled = async () => {
    while (timer || running) {
      if (timer) {
        clearTimeout(timer)
        timer = undefined
        current = run()
      }
      await current
    }
  }
  return Object.assign(schedule, { settled })
}
