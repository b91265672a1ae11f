import { type Static, Type } from 'typebox'
import { BaseUnits, type RouteDef, route } from './common.ts'
import { NumberedEnum } from './fields.ts'

// The monthly ranking of new power.

/** The ranking's tabs; spec clients send them as a number too (1 direct, 2 team: docs/product.md#spec-paths). */
export const RANK_TYPES = ['direct', 'team'] as const
export const RankType = Type.Union([Type.Literal('direct'), Type.Literal('team')])
export type RankType = Static<typeof RankType>
export const RankRow = Type.Object({
  rank: Type.Integer({ minimum: 1 }),
  address: Type.String({ description: 'Shortened: first 4 … last 4 characters' }),
  /** New power this month, USDT base units. */
  power: BaseUnits,
})
export type RankRow = Static<typeof RankRow>

export const rankRoutes = {
  ranking: route({
    path: '/invest/Invest_pledge/ranking',
    auth: true,
    tag: 'rank',
    summary:
      'Monthly ranking (UTC month) of new power: direct (of direct members) or team (of the whole downline); the top ' +
      "30 of the latest snapshot, the user's own position and the next update time. Equal power: whoever reached it " +
      'first, then the lower user id',
    body: Type.Object({ type: NumberedEnum(RANK_TYPES, 'The tab') }, { additionalProperties: false }),
    data: Type.Object({
      type: RankType,
      /** The month ranked, YYYY-MM (UTC). */
      month: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$' }),
      decimals: Type.Integer(),
      list: Type.Array(RankRow),
      /** The user's own position: rank null when they have no new power this month. */
      mine: Type.Object({ rank: Type.Union([Type.Integer(), Type.Null()]), power: BaseUnits }),
      computed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      next_update_at: Type.String({ format: 'date-time' }),
    }),
  }),
} as const satisfies Record<string, RouteDef>
