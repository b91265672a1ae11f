import { type Static, Type } from 'typebox'
import { BaseUnits, Coin, Day, PositiveBaseUnits, type RouteDef, route } from './common.ts'
import { Id } from './fields.ts'

// The daily settlement and the credits it pays.

export const OutputType = Type.Union([
  Type.Literal('pledge_output'),
  Type.Literal('finance_output'),
  Type.Literal('node_dividend'),
  Type.Literal('referral_reward'),
])
export type OutputType = Static<typeof OutputType>
/** One credit of the daily settlement (output detail in docs/product.md#records: time, currency, amount, type). */
export const OutputRecord = Type.Object({
  id: Id,
  day: Day,
  coin: Coin,
  decimals: Type.Integer(),
  amount: PositiveBaseUnits,
  type: OutputType,
  created_at: Type.String({ format: 'date-time' }),
})
export type OutputRecord = Static<typeof OutputRecord>

export const SettlementDay = Type.Object({
  day: Day,
  /** held: the circuit breaker stopped it before its payment until an admin releases it (docs/settlement.md). */
  status: Type.Union([Type.Literal('running'), Type.Literal('held'), Type.Literal('done')]),
  /** Per output type: how many credits and their sum, in the type's coin base units. */
  totals: Type.Array(
    Type.Object({ type: OutputType, coin: Coin, decimals: Type.Integer(), count: Type.Integer(), amount: BaseUnits }),
  ),
  expired: Type.Object({ stakes: Type.Integer(), finance: Type.Integer() }),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})
export type SettlementDay = Static<typeof SettlementDay>

export const settlementRoutes = {
  settlementRun: route({
    path: '/admin/settlement/run',
    auth: false,
    operator: true,
    tag: 'operator',
    summary:
      'Run the daily settlement through a day: every day not yet settled up to it, in order (Operator-Token header)',
    body: Type.Object({ day: Day }, { additionalProperties: false }),
    data: Type.Object({ list: Type.Array(SettlementDay) }),
  }),
} as const satisfies Record<string, RouteDef>
