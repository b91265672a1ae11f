import { type Static, Type } from 'typebox'
import { Page, type RouteDef, route } from './common.ts'
import { Id } from './fields.ts'

// Notices and banners as users read them.

const Value = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])

/**
 * A change of what the platform pays or takes, announced before it applies (docs/economics.md): the business
 * configuration or an asset's settings, decided by the admins and in force from effective_at.
 */
export const EconomicNotice = Type.Object({
  id: Id,
  /** scheduled: announced, not in force yet; applied: in force since effective_at. */
  status: Type.Union([Type.Literal('scheduled'), Type.Literal('applied')]),
  effective_at: Type.String({ format: 'date-time' }),
  items: Type.Array(
    Type.Object({
      /** The value that changes: a field of the configuration ('referralRewards.rateBps') or 'asset.<setting>'. */
      field: Type.String(),
      /** Which row: the referral level, the period's days, the node level, the fuel tier's number, the asset; or null. */
      row: Type.Union([Type.String(), Type.Null()]),
      /** As stored: base units for amounts, basis points for rates; null when the row is added or removed. */
      before: Value,
      after: Value,
      /** How to show it: an amount of a coin, a rate in basis points, a number or a flag. */
      unit: Type.Union([
        Type.Object({ kind: Type.Literal('amount'), coin: Type.String(), decimals: Type.Integer() }),
        Type.Object({ kind: Type.Union([Type.Literal('rate'), Type.Literal('number'), Type.Literal('flag')]) }),
      ]),
    }),
  ),
})
export type EconomicNotice = Static<typeof EconomicNotice>

export const noticeRoutes = {
  noticeList: route({
    path: '/news/news/index',
    auth: false,
    tag: 'notice',
    summary:
      "Published notices, newest first, each in the request's accept-language (en when that translation is " +
      'missing); event: the notice the operator flagged to open as a dialog, or null',
    body: Type.Object(Page, { additionalProperties: false }),
    data: Type.Object({
      list: Type.Array(
        Type.Object({
          id: Id,
          title: Type.String(),
          lang: Type.String({ description: 'The language of this translation: the requested one, or en' }),
          is_event: Type.Boolean(),
          published_at: Type.String({ format: 'date-time' }),
        }),
      ),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
      event: Type.Union([Type.Object({ id: Id, title: Type.String() }), Type.Null()]),
    }),
  }),
  noticeInfo: route({
    path: '/news/news/info',
    auth: false,
    tag: 'notice',
    summary: "One published notice with its rich-text body, in the request's accept-language (en when missing)",
    body: Type.Object({ id: Id }, { additionalProperties: false }),
    data: Type.Object({
      id: Id,
      title: Type.String(),
      body: Type.String({
        description: 'Rich text: a restricted HTML subset (p, br, h2-h4, strong, em, u, s, ul, ol, li, a, img, …)',
      }),
      lang: Type.String({ description: 'The language of the title: the requested one, or en' }),
      body_lang: Type.String({
        description: "The language of the body: the title's, or en when that translation's body is empty",
      }),
      is_event: Type.Boolean(),
      published_at: Type.String({ format: 'date-time' }),
    }),
  }),
  economicNotices: route({
    path: '/news/news/changes',
    auth: false,
    tag: 'notice',
    summary:
      'Changes of what the platform pays or takes that the admins decided: those announced and not in force yet ' +
      '(their notice period runs), then those that took effect in the last 7 days, each with when and what changes',
    body: Type.Object({}, { additionalProperties: false }),
    data: Type.Object({ list: Type.Array(EconomicNotice) }),
  }),
  bannerList: route({
    path: '/home/banner/index',
    auth: false,
    tag: 'notice',
    summary:
      "Banners of a type (1: the home carousel) in display order, in the request's accept-language (en when missing)",
    body: Type.Object({ ...Page, type: Type.Integer({ minimum: 1, maximum: 1000 }) }, { additionalProperties: false }),
    data: Type.Object({
      list: Type.Array(
        Type.Object({
          id: Id,
          title: Type.String({ description: 'Caption and image alternative text' }),
          image_url: Type.String({ description: 'A path of this site or an https URL' }),
          link: Type.Union([Type.String(), Type.Null()], { description: 'A path of the app or an https URL' }),
          sort: Type.Integer(),
          lang: Type.String(),
        }),
      ),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
    }),
  }),
} as const satisfies Record<string, RouteDef>
