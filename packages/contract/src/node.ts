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
/** The daily node pool: shared by dividend weight among the nodes sold (docs/settlement.md, "Node pool"). */
export const NodePool = Type.Object({
  /** The token the pool pays ({product}). */
  coin: Type.String(),
  decimals: Type.Integer(),
  /** Base units of the coin shared each settled day. */
  daily: BaseUnits,
  /** The dividend weight of all nodes sold so far. */
  total_weight: BaseUnits,
  /** The valuation price: USDT base units per whole token. */
  price: PositiveBaseUnits,
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
    summary:
      'Node levels with price, supply cap, sold count and benefits, and the node pool they share (what a node of a ' +
      'level is expected to earn: docs/economics.md, "Returns and APR")',
    body: Empty,
    data: Type.Object({
      list: Type.Array(NodeLevelInfo),
      pool: NodePool,
    }),
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
