import { api } from '@solpledge/contract'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../lib/route.ts'
import {
  cancelOrder,
  myOrders,
  orderDetail,
  placeOrder,
  swap,
  swapQuote,
  tradeHome,
  trendChart,
  trendChartPageInfo,
} from './service.ts'

export async function tradeRoutes(app: FastifyInstance) {
  const market = app.trade
  // Commands run in the market's batches: each one's answer is stored in its batch's transaction (answerIn).
  defineRoute(app, api.tradeSell, { successKey: 'trade.orderPlaced' }, ({ user, body, answerIn }) =>
    placeOrder(market, user.id, 'sell', body, answerIn),
  )
  defineRoute(app, api.tradeBuy, { successKey: 'trade.orderPlaced' }, ({ user, body, answerIn }) =>
    placeOrder(market, user.id, 'buy', body, answerIn),
  )
  defineRoute(app, api.tradeMyOrders, {}, ({ user, body }) =>
    myOrders(market, user.id, { status: body.status, type: body.type, page: body.page ?? 1, limit: body.limit ?? 10 }),
  )
  defineRoute(app, api.tradeOrderDetail, {}, ({ user, body }) => orderDetail(market, user.id, body.id))
  defineRoute(app, api.tradeCancel, { successKey: 'trade.cancelSuccess' }, ({ user, body, answerIn }) =>
    cancelOrder(market, user.id, body.id, answerIn),
  )
  defineRoute(app, api.tradeHome, {}, ({ body }) => tradeHome(market, body.depth ?? 10))
  defineRoute(app, api.trendChart, {}, ({ body }) =>
    trendChart(app.db, market.symbol, { interval: body.interval, limit: body.limit ?? 200, before: body.before }),
  )
  defineRoute(app, api.trendChartPageInfo, {}, () => trendChartPageInfo(market))
  defineRoute(app, api.swapQuote, {}, ({ body }) => swapQuote(market, body))
  defineRoute(app, api.swap, { successKey: 'trade.swapSuccess' }, ({ user, body, answerIn }) =>
    swap(market, user.id, body, answerIn),
  )
}
