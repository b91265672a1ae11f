import { type Static, Type } from 'typebox'
import {
  BaseUnits,
  Coin,
  Day,
  Empty,
  OptionalPage,
  PagedOf,
  PositiveBaseUnits,
  type RouteDef,
  route,
} from './common.ts'
import { Id, NumberedEnum } from './fields.ts'
import { OutputRecord } from './settlement.ts'

// Staking {product} for a period (docs/product.md#staking).

export const PledgeConfig = Type.Object({
  symbol: Type.String(),
  decimals: Type.Integer(),
  /** USDT base units per whole token: the valuation price (docs/trade.md), never the last trade of a thin book. */
  price: PositiveBaseUnits,
  min_u: BaseUnits,
  /** The minimum stake in the token's base units at the current price (rounded up, never below min_u). */
  min_amount: BaseUnits,
  periods: Type.Array(Type.Object({ days: Type.Integer(), output_bps: Type.Integer(), power_bps: Type.Integer() })),
})
export type PledgeConfig = Static<typeof PledgeConfig>

/** A stake's status; spec clients send it as a number too (1 mining, 2 expired: docs/product.md#records). */
export const STAKE_STATUSES = ['mining', 'expired'] as const
export const StakeStatus = Type.Union([Type.Literal('mining'), Type.Literal('expired')])
/** A stake (docs/product.md#records): amounts in {product} base units, value and power in USDT base units. */
export const Stake = Type.Object({
  id: Id,
  coin: Coin,
  decimals: Type.Integer(),
  amount: PositiveBaseUnits,
  price: PositiveBaseUnits,
  usdt_value: BaseUnits,
  days: Type.Integer(),
  output_bps: Type.Integer(),
  power: BaseUnits,
  total_output: BaseUnits,
  produced: BaseUnits,
  remaining: BaseUnits,
  start_day: Day,
  end_day: Day,
  status: StakeStatus,
  paid: Type.Union([Type.Literal('balance'), Type.Literal('chain')]),
  created_at: Type.String({ format: 'date-time' }),
})
export type Stake = Static<typeof Stake>

/** The longest history (days) the charts ask for: a year. */
export const HISTORY_MAX_DAYS = 366

/** The history routes' window: the last `days` days up to today (UTC). */
const HistoryWindow = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 7, maximum: HISTORY_MAX_DAYS, default: 90 })) },
  { additionalProperties: false },
)

export const pledgeRoutes = {
  pledgeConfig: route({
    path: '/invest/invest_pledge/:product',
    auth: false,
    tag: 'pledge',
    summary: 'Staking configuration of {product} (e.g. /invest/invest_pledge/PLG): price, minimum and periods',
    body: Empty,
    data: PledgeConfig,
  }),
  pledgeStake: route({
    path: '/invest/invest_pledge/stake',
    idempotent: true,
    auth: true,
    tag: 'pledge',
    summary:
      'Stake {product} from the asset balance for a configured period (on chain: a payment intent, purpose stake)',
    body: Type.Object(
      { amount: PositiveBaseUnits, days: Type.Integer({ minimum: 1, maximum: 3650 }) },
      {
        additionalProperties: false,
      },
    ),
    data: Stake,
  }),
  minerList: route({
    path: '/invest/invest_pledge/getMinerList',
    auth: true,
    tag: 'pledge',
    summary: "The user's stakes of a status (mining or expired), newest first",
    body: Type.Object(
      { status: NumberedEnum(STAKE_STATUSES, 'The status'), ...OptionalPage },
      { additionalProperties: false },
    ),
    data: PagedOf(Stake),
  }),
  minerDetail: route({
    path: '/invest/invest_pledge/MinerDetail',
    auth: true,
    tag: 'pledge',
    summary: "One of the user's stakes with its output records, newest first (parent_id: the stake id, as id)",
    body: Type.Object({ id: Id, ...OptionalPage, parent_id: Type.Optional(Id) }, { additionalProperties: false }),
    data: Type.Object({ detail: Stake, records: PagedOf(OutputRecord) }),
  }),
  fuel: route({
    path: '/invest/invest_pledge/fuel',
    auth: true,
    tag: 'pledge',
    summary:
      "Fuel bars: the platform-wide total and the user's small-market fuel (team power minus the largest direct leg) " +
      'against the tiers, in whole USDT of power',
    body: Empty,
    data: Type.Object({
      tiers: Type.Array(Type.Integer()),
      total_fuel: BaseUnits,
      my_fuel: BaseUnits,
      team_power: BaseUnits,
      largest_leg: BaseUnits,
      /** How many tiers my_fuel has reached (0 … tiers.length). */
      reached: Type.Integer(),
      next_tier: Type.Union([Type.Integer(), Type.Null()]),
    }),
  }),
  today: route({
    path: '/invest/invest_pledge/today',
    auth: true,
    tag: 'pledge',
    summary: "Today's figures: the user's output of the last settled day, power, direct new and recommended power",
    body: Empty,
    data: Type.Object({
      day: Day,
      /** The newest settled day (null before the first settlement) and the user's credits of it, per coin. */
      settled_day: Type.Union([Day, Type.Null()]),
      output: Type.Array(Type.Object({ coin: Coin, decimals: Type.Integer(), amount: BaseUnits })),
      personal_power: BaseUnits,
      team_power: BaseUnits,
      /** New power of direct members today. */
      direct_new_power: BaseUnits,
      /** New power of the whole downline today (today's recommended power). */
      recommended_power: BaseUnits,
    }),
  }),
  myHistory: route({
    path: '/invest/invest_pledge/history',
    auth: true,
    tag: 'pledge',
    summary:
      "The user's history for charts, over the last `days` days up to today (UTC), or the newest settled day when an " +
      'operator settled ahead: the output credited on each ' +
      'settled day per coin (stakes, finance, node dividends and referral rewards), personal power — its value ' +
      "on the first day, then after each day it changed — and the team's performance by month",
    body: HistoryWindow,
    data: Type.Object({
      from: Day,
      to: Day,
      /** Oldest first; days without output are left out. */
      output: Type.Array(Type.Object({ day: Day, coin: Coin, decimals: Type.Integer(), amount: BaseUnits })),
      /** Oldest first: the first entry is `from`; personal power in USDT base units at the end of each day. */
      power: Type.Array(Type.Object({ day: Day, power: BaseUnits })),
      /**
       * The team's performance by month (UTC), oldest first, from the month of `from`: the USDT value of the stakes the
       * whole downline made in that month (the user's own not included); months without one are left out.
       */
      team: Type.Array(Type.Object({ month: Day, performance: BaseUnits })),
    }),
  }),
  priceHistory: route({
    path: '/invest/invest_pledge/price_history',
    auth: false,
    tag: 'pledge',
    summary:
      "The {product} prices by day (UTC) over the last `days` days up to today: the quick trade's last price of each " +
      'day with trades, and the valuation price of each day the daily job recorded it (its latest of the day)',
    body: HistoryWindow,
    data: Type.Object({
      from: Day,
      to: Day,
      symbol: Type.String(),
      /** Oldest first; days without a trade are left out. USDT base units per whole token. */
      trade: Type.Array(Type.Object({ day: Day, price: BaseUnits })),
      /** Oldest first; days the job did not run are left out. USDT base units per whole token. */
      valuation: Type.Array(
        Type.Object({
          day: Day,
          price: BaseUnits,
          source: Type.Union([Type.Literal('reference'), Type.Literal('trade')]),
        }),
      ),
    }),
  }),
  rateHistory: route({
    path: '/invest/invest_pledge/rate_history',
    auth: false,
    tag: 'pledge',
    summary:
      "Each product's output rate as the business configuration's applied versions set it, oldest first: per staking " +
      'period its output multiple (output_bps, 10600 = ×1.06) and per finance term its total output over the term ' +
      '(output_bps, 150 = 1.5 %), from the moment the version that changed it came into force; null while the ' +
      'product was not offered',
    body: Empty,
    data: Type.Object({
      products: Type.Array(
        Type.Object({
          kind: Type.Union([Type.Literal('stake'), Type.Literal('finance')]),
          days: Type.Integer(),
          /** Oldest first: one entry per change (a version that kept the rate adds none). */
          changes: Type.Array(
            Type.Object({
              from: Type.String({ format: 'date-time' }),
              output_bps: Type.Union([Type.Integer(), Type.Null()]),
            }),
          ),
        }),
      ),
    }),
  }),
} as const satisfies Record<string, RouteDef>
