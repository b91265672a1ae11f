import { type Static, Type } from 'typebox'
import { BaseUnits, Empty, PositiveBaseUnits, type RouteDef, route } from './common.ts'
import { Id, Text } from './fields.ts'

// Nodes: levels and the ones a user bought.

export const NodeLevelInfo = Type.Object({
  code: Type.String({ description: 'junior, senior, super, …' }),
  price_usdt: PositiveBaseUnits,
  supply_cap: Type.Integer(),
  sold: Type.Integer(),
  remaining: Type.Integer(),
  power_bonus_bps: Type.Integer(),
  dividend_weight: Type.Integer(),
  one_per_user: Type.Boolean(),
})
export const UserNode = Type.Object({
  id: Id,
  level: Type.String(),
  price_usdt: PositiveBaseUnits,
  power_bonus_bps: Type.Integer(),
  dividend_weight: Type.Integer(),
  /** Node-pool dividends received so far, in {product} base units (paid by the daily settlement). */
  dividends: BaseUnits,
  created_at: Type.String({ format: 'date-time' }),
})
export type UserNode = Static<typeof UserNode>

export const nodeRoutes = {
  nodeLevel: route({
    path: '/invest/invest_pledge/node_level',
    auth: false,
    tag: 'node',
    summary: 'Node levels with price, supply cap, sold count and benefits',
    body: Empty,
    data: Type.Object({ list: Type.Array(NodeLevelInfo) }),
  }),
  nodeBuy: route({
    path: '/invest/invest_pledge/node',
    idempotent: true,
    auth: true,
    tag: 'node',
    summary: 'Buy a node of a level, paid in USDT from the asset balance (on chain: a payment intent, purpose node)',
    body: Type.Object(
      { level: Text({ minLength: 1, maxLength: 32 }), pay: Type.Literal('balance') },
      { additionalProperties: false },
    ),
    data: UserNode,
  }),
  myNodes: route({
    path: '/invest/invest_pledge/myNode',
    auth: true,
    tag: 'node',
    summary: "The user's nodes and their dividends",
    body: Empty,
    data: Type.Object({ list: Type.Array(UserNode) }),
  }),
} as const satisfies Record<string, RouteDef>
