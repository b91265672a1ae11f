import { type Static, Type } from 'typebox'
import { NoticeTranslation } from './admin.ts'
import { BaseUnits, Empty, type RouteDef, route } from './common.ts'
import { Id, Text } from './fields.ts'

// Campaigns (docs/product.md#campaigns): a time-boxed event with qualification tiers on direct referrals and
// small-market fuel (docs/economics.md#small-market-fuel), each tier with its reward. The console's routes are in
// admin-routes.ts.

/** What a tier gives: a node of a configured level (granted through the four-eyes adjustments), trip places or text. */
export const CampaignReward = Type.Union([
  Type.Object(
    { kind: Type.Literal('node'), level: Text({ minLength: 1, maxLength: 32, description: 'A node level code' }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('trip'), places: Type.Integer({ minimum: 1, maximum: 100 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('text'), text: Text({ minLength: 1, maxLength: 200 }) },
    { additionalProperties: false },
  ),
])
export type CampaignReward = Static<typeof CampaignReward>

/**
 * One qualification tier: a user qualifies with at least `min_direct` direct referrals and at least `min_fuel` of
 * small-market fuel (USDT base units of power). Tiers ascend: each asks at least what the one before asks, and more
 * of one of the two.
 */
export const CampaignTier = Type.Object(
  {
    min_direct: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    min_fuel: BaseUnits,
    reward: CampaignReward,
  },
  { additionalProperties: false },
)
export type CampaignTier = Static<typeof CampaignTier>

/** running: between its start and its end; ended: its result is fixed (upcoming campaigns are not shown to users). */
export const CampaignStatus = Type.Union([Type.Literal('running'), Type.Literal('ended')])

/** A campaign as a signed-in user sees it, with their figures and the tier they reach. */
export const UserCampaign = Type.Object({
  id: Id,
  title: Type.String(),
  body: Type.String({ description: 'Rich text: the same restricted HTML subset as notices' }),
  lang: Type.String({ description: 'The language of title and body: the requested one, or en' }),
  starts_at: Type.String({ format: 'date-time' }),
  ends_at: Type.String({ format: 'date-time' }),
  status: CampaignStatus,
  /** USDT's decimals: fuel is USDT base units of power. */
  decimals: Type.Integer(),
  tiers: Type.Array(CampaignTier),
  /** The user's figures: live while running, as fixed at the end once ended (zero when not qualified then). */
  direct_count: Type.Integer(),
  fuel: BaseUnits,
  /** The highest tier reached (1-based), or 0: none. Once ended, the result. */
  tier: Type.Integer({ minimum: 0 }),
})
export type UserCampaign = Static<typeof UserCampaign>

export const campaignRoutes = {
  campaignList: route({
    path: '/news/campaign/index',
    auth: true,
    tag: 'campaign',
    summary:
      "The campaigns running now and those ended in the last 30 days, in the request's accept-language (en when " +
      "missing), each with the user's direct referrals, small-market fuel and the tier reached (live while running, " +
      'the result once ended)',
    body: Empty,
    data: Type.Object({ list: Type.Array(UserCampaign) }),
  }),
} as const satisfies Record<string, RouteDef>

/** A campaign's title and rich-text body in one language: a notice's translation (the body is notice markup). */
export const CampaignTranslation = NoticeTranslation

/** A campaign as the console sees it: every translation, its tiers, and whether its result is fixed. */
export const AdminCampaign = Type.Object({
  id: Id,
  translations: Type.Array(CampaignTranslation),
  starts_at: Type.String({ format: 'date-time' }),
  ends_at: Type.String({ format: 'date-time' }),
  /** upcoming: editable; running; ended. */
  status: Type.Union([Type.Literal('upcoming'), CampaignStatus]),
  tiers: Type.Array(CampaignTier),
  decimals: Type.Integer({ description: "USDT's decimals: fuel is USDT base units of power" }),
  created_by: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  /** When the result was fixed (the first read after the end); null before. */
  finalized_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})
export type AdminCampaign = Static<typeof AdminCampaign>

/** A user who reaches a tier: their figures (live while running, fixed once ended) and their node reward's state. */
export const CampaignQualifier = Type.Object({
  /** The user's id. */
  id: Id,
  address: Type.String(),
  direct_count: Type.Integer(),
  fuel: BaseUnits,
  /** The highest tier reached, 1-based. */
  tier: Type.Integer({ minimum: 1 }),
  reward: CampaignReward,
  /** The node reward's adjustment, once proposed (null for other rewards or before Grant). */
  adjustment_id: Type.Union([Id, Type.Null()]),
  adjustment_status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('applied'),
    Type.Literal('rejected'),
    Type.Null(),
  ]),
})
export type CampaignQualifier = Static<typeof CampaignQualifier>
