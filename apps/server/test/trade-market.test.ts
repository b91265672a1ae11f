// The market's figures: its price (the last trade; valuations use the valuation price), the trade home (depth, last price, 24 h) and the candles. One app
// for the whole file, in order: nothing has traded before the first test.
import { API_BASE, api, type Candle, Code, type DataOf, type PledgeConfig } from '@solpledge/contract'
import { NEW_MARKET, PLG, USDT } from '@solpledge/test-fixtures'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { setBusinessConfig } from '../src/modules/config/service.ts'
import { clearBook, createTradeApp, expectSound, place, trader } from './fixtures/trade.ts'
import { call, dbKind } from './helpers.ts'

describe(`quick trade: market figures and candles (${dbKind})`, () => {
  let t: Awaited<ReturnType<typeof createTradeApp>>
  beforeAll(async () => {
    t = await createTradeApp()
  })
  afterEach(() => expectSound(t.db))
  afterAll(() => t.close())

  const home = async (depth?: number) => {
    const res = await call(t.app, api.tradeHome, depth === undefined ? {} : { depth })
    expect(res.code, res.msg).toBe(Code.OK)
    return res.data as DataOf<typeof api.tradeHome>
  }
  const prices = async () => {
    const pledge = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}/invest/invest_pledge/PLG`,
      payload: {},
    })
    const homePrice = await call(t.app, api.homePrice, {})
    return {
      pledge: (pledge.json() as { data: PledgeConfig }).data.price,
      home: homePrice.data as DataOf<typeof api.homePrice>,
    }
  }

  it('before the first trade the reference price is the price everywhere', async () => {
    expect(await prices()).toEqual({
      pledge: '500000',
      home: { price: '0.5', pair: 'PLG/USDT', symbol: 'PLG', quote: 'USDT', source: 'reference' },
    })
    const { market, best_bid, best_ask, bids, asks } = await home()
    expect({ best_bid, best_ask, bids, asks }).toEqual({ best_bid: null, best_ask: null, bids: [], asks: [] })
    expect(market).toEqual(NEW_MARKET)
  })

  it('the home shows the depth of each side best first, the last price and the 24 h figures', async () => {
    const s = await trader(t, { PLG: 1000n * PLG })
    const b = await trader(t, { USDT: 1000n * USDT })
    for (const [price, amount] of [
      [700_000n, 5n],
      [650_000n, 2n],
      [650_000n, 3n],
      [800_000n, 1n],
    ] as const)
      await place(t.app, s, 'sell', price, amount * PLG)
    for (const [price, amount] of [
      [400_000n, 4n],
      [450_000n, 1n],
      [450_000n, 1n],
    ] as const)
      await place(t.app, b, 'buy', price, amount * PLG)
    // Trades at 0.65 (2 then 3 PLG) then 0.7 (1 PLG); the first is moved out of the window: open 0.65, last 0.7.
    await place(t.app, b, 'buy', 650_000n, 5n * PLG)
    // The 24 h change compares with the price 24 hours ago: the reference price 0.5 before any trade, so the first
    // trades at 0.65 show +30 % (not 0 %, as against the window's own first trade).
    expect((await home()).market).toMatchObject({ open_24h: '650000', last_price: '650000', change_24h_bps: 3000 })
    await place(t.app, b, 'buy', 700_000n, 1n * PLG)
    expect((await home()).market.change_24h_bps).toBe(4000)
    // A trade older than a day is outside the window: the change compares with it (0.65), the last before the window.
    await sql`update trade_fills set created_at = now() - interval '25 hours'
      where id = (select min(id) from trade_fills)`.execute(t.db)

    const view = await home(2)
    expect(view).toMatchObject({
      best_bid: '450000',
      best_ask: '700000',
      bids: [
        { price: '450000', amount: String(2n * PLG), orders: 2 },
        { price: '400000', amount: String(4n * PLG), orders: 1 },
      ],
      asks: [
        { price: '700000', amount: String(4n * PLG), orders: 1 },
        { price: '800000', amount: String(PLG), orders: 1 },
      ],
    })
    expect(view.market).toMatchObject({
      last_price: '700000',
      price: '700000',
      price_source: 'trade',
      open_24h: '650000',
      high_24h: '700000',
      low_24h: '650000',
      change_24h_bps: 769,
      volume_24h: String(4n * PLG),
      quote_volume_24h: String(3n * 650_000n + 700_000n),
    })
    expect((await home()).bids).toHaveLength(2)
    expect((await call(t.app, api.tradeHome, { depth: 51 })).code).toBe(Code.INVALID)
  })

  it('staking and the home screen keep the valuation price: a few PLG traded are too thin to move it', async () => {
    expect(await prices()).toEqual({
      pledge: '500000',
      home: { price: '0.5', pair: 'PLG/USDT', symbol: 'PLG', quote: 'USDT', source: 'reference' },
    })
  })

  it('candles: open, high, low, close and volumes of known trades in two intervals, paged back with before', async () => {
    await clearBook(t.app)
    const s = await trader(t, { PLG: 100n * PLG })
    const b = await trader(t, { USDT: 100n * USDT })
    // Five trades of 1 PLG, placed at known times: 00:00:10 0.5, 00:00:50 0.6, 00:01:20 0.4, 00:05:30 0.55, 00:07:00 0.45.
    const base = Date.UTC(2025, 0, 1) / 1000
    const trades: [number, bigint][] = [
      [10, 500_000n],
      [50, 600_000n],
      [80, 400_000n],
      [330, 550_000n],
      [420, 450_000n],
    ]
    for (const [offset, price] of trades) {
      await place(t.app, s, 'sell', price, PLG)
      const buy = await place(t.app, b, 'buy', price, PLG)
      await sql`update trade_fills set created_at = to_timestamp(${base + offset}) where taker_order_id = ${buy.id}`.execute(
        t.db,
      )
    }
    const chart = async (body: Record<string, unknown>) => {
      const res = await call(t.app, api.trendChart, body)
      expect(res.code, res.msg).toBe(Code.OK)
      return (res.data as { list: Candle[] }).list
    }
    const candle = (time: number, o: bigint, h: bigint, l: bigint, c: bigint, n: bigint): Candle => ({
      time,
      open: String(o),
      high: String(h),
      low: String(l),
      close: String(c),
      volume: String(n * PLG),
      quote_volume: String(n === 1n ? o : 0n),
    })
    const before = base + 3600
    const minutes = await chart({ interval: '1m', before })
    expect(minutes).toEqual([
      { ...candle(base, 500_000n, 600_000n, 500_000n, 600_000n, 2n), quote_volume: '1100000' },
      candle(base + 60, 400_000n, 400_000n, 400_000n, 400_000n, 1n),
      candle(base + 300, 550_000n, 550_000n, 550_000n, 550_000n, 1n),
      candle(base + 420, 450_000n, 450_000n, 450_000n, 450_000n, 1n),
    ])
    expect(await chart({ interval: '5m', before })).toEqual([
      { ...candle(base, 500_000n, 600_000n, 400_000n, 400_000n, 3n), quote_volume: '1500000' },
      { ...candle(base + 300, 550_000n, 550_000n, 450_000n, 450_000n, 2n), quote_volume: '1000000' },
    ])
    // Paging back: the two latest candles before 00:07, then the one before those.
    expect(await chart({ interval: '1m', before: base + 420, limit: 2 })).toEqual(minutes.slice(1, 3))
    expect(await chart({ interval: '1m', before: base + 60, limit: 2 })).toEqual(minutes.slice(0, 1))
    // A bound inside an interval: candles that start before it.
    expect(await chart({ interval: '5m', before: base + 1 })).toEqual([
      { ...candle(base, 500_000n, 600_000n, 400_000n, 400_000n, 3n), quote_volume: '1500000' },
    ])
    // The latest candles (today's trades of the earlier test are the last ones), oldest first.
    const latest = await chart({ interval: '1d' })
    expect(latest.at(0)?.time).toBe(base)
    expect(latest.length).toBeGreaterThanOrEqual(2)
    expect(latest.map((c) => c.time)).toEqual([...latest.map((c) => c.time)].sort((x, y) => x - y))
    expect(await chart({ interval: '1d', limit: 1 })).toEqual(latest.slice(-1))

    const info = await call(t.app, api.trendChartPageInfo, {})
    expect(info.data).toMatchObject({
      intervals: ['1m', '5m', '15m', '1h', '4h', '1d'],
      default_interval: '15m',
      market: { pair: 'PLG/USDT', price_source: 'trade' },
    })
    expect((await call(t.app, api.trendChart, { interval: '2m' })).code).toBe(Code.INVALID)
  })

  it('the configuration refuses a tick and lot whose fills would not be exact', async () => {
    const bad = { ...DEFAULT_BUSINESS_CONFIG, trade: { ...DEFAULT_BUSINESS_CONFIG.trade, tickSize: '50' } }
    await expect(setBusinessConfig(t.db, bad, 'test')).rejects.toMatchObject({ key: 'error.invalidParams' })
    const good = {
      ...DEFAULT_BUSINESS_CONFIG,
      trade: { ...DEFAULT_BUSINESS_CONFIG.trade, tickSize: '1000', lotSize: '1000000' },
    }
    await setBusinessConfig(t.db, good, 'test')
    // The next order follows the new rules at once.
    const u = await trader(t, { PLG: 10n * PLG })
    const res = await call(t.app, api.tradeSell, { price: '500100', amount: String(PLG) }, u.auth)
    expect(res.msg).toBe('The price must be a multiple of 0.001 USDT')
    await place(t.app, u, 'sell', 5_001_000n, PLG + 1_000_000n)
    await setBusinessConfig(t.db, DEFAULT_BUSINESS_CONFIG, 'test')
  })
})
