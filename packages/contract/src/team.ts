import { type Static, Type } from 'typebox'
import { Address, BaseUnits, Empty, Page, type RouteDef, route } from './common.ts'
import { Id } from './fields.ts'

// The user's team (downline).

/** A direct member on the team page: figures in USDT base units (performance: staked value; power). */
export const TeamMember = Type.Object({
  id: Id,
  address: Type.String(),
  joined_at: Type.String({ format: 'date-time' }),
  /** The member's own staked value. */
  performance: BaseUnits,
  team_performance: BaseUnits,
  personal_power: BaseUnits,
  team_power: BaseUnits,
  /** Members in the member's whole downline. */
  team_count: Type.Integer(),
  direct_count: Type.Integer(),
})
export type TeamMember = Static<typeof TeamMember>

export const teamRoutes = {
  teamIndex: route({
    path: '/user/team/index',
    auth: true,
    tag: 'team',
    summary:
      "The user's team figures, maintained as the tree changes: team and direct counts, team, personal and push " +
      'performance, team and personal power, small-market fuel (team power minus the largest direct leg)',
    body: Empty,
    data: Type.Object({
      /** USDT decimals: performance and power are USDT base units. */
      decimals: Type.Integer(),
      team_count: Type.Integer(),
      direct_count: Type.Integer(),
      team_performance: BaseUnits,
      personal_performance: BaseUnits,
      /** Sum of the direct members' own performance. */
      push_performance: BaseUnits,
      team_power: BaseUnits,
      personal_power: BaseUnits,
      /** A direct member's leg: their personal power plus their team power; the largest of them. */
      largest_leg: BaseUnits,
      small_market_fuel: BaseUnits,
      /** The user's invite code: their wallet address (invite link /?code=<address>). */
      invite_code: Type.String(),
    }),
  }),
  teamList: route({
    path: '/user/team/lists',
    auth: true,
    tag: 'team',
    summary: "The user's direct members, newest first, with their performance and team size",
    body: Type.Object(Page, { additionalProperties: false }),
    data: Type.Object({
      decimals: Type.Integer(),
      list: Type.Array(TeamMember),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
    }),
  }),
  teamDetail: route({
    path: '/user/team/detail',
    auth: true,
    tag: 'team',
    summary: "One of the user's direct members by wallet address; anyone else is refused",
    body: Type.Object({ address: Address }, { additionalProperties: false }),
    data: Type.Object({ decimals: Type.Integer(), member: TeamMember }),
  }),
} as const satisfies Record<string, RouteDef>
