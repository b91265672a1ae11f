import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { invalid, refuse } from '../../lib/app-error.ts'
import { isDay, latestDueDay } from '../../lib/day.ts'
import { defineRoute } from '../../lib/route.ts'
import { getBusinessConfig } from '../config/index.ts'
import { recordPriceDay } from '../trade/index.ts'
import { type SettleOptions, settleThrough } from './service.ts'

export async function settlementRoutes(app: FastifyInstance, opts: { settle: SettleOptions }) {
  // Operators (and `npm run settle`) settle every day not yet settled through `day`. A day not yet due is refused,
  // except on the local chain, where tests and demos settle future days.
  defineRoute(app, api.settlementRun, { successKey: 'settlement.done' }, async ({ body }) => {
    if (!isDay(body.day)) throw invalid('error.invalidParams', { detail: 'day' })
    const config = await getBusinessConfig(app.db)
    if (!app.platform.localChain && body.day > latestDueDay(new Date(), config.settlementHourUtc))
      throw refuse('settlement.notDue', { day: body.day })
    const list = await settleThrough(app.db, body.day, opts.settle)
    // As the settlement job's pass does: today's prices for the history (modules/trade/price.ts).
    await recordPriceDay(app.db, app.config.productSymbol)
    return { list }
  })
}
