import { Type } from 'typebox'
import { BaseUnits, Day, Empty, type RouteDef, route } from './common.ts'

// The home screen's figures.

export const homeRoutes = {
  homePrice: route({
    path: '/home/index/price',
    auth: false,
    tag: 'home',
    summary:
      'The {product} valuation price in USDT per token (a decimal string) and the trading pair: a time- and ' +
      'volume-weighted average of the recent trades of many accounts near the reference price (source trade), or ' +
      'the reference price while they are thin (source reference)',
    body: Empty,
    data: Type.Object({
      price: Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description: 'USDT per whole token, e.g. "0.5"' }),
      pair: Type.String({ description: 'e.g. PLG/USDT' }),
      symbol: Type.String(),
      quote: Type.String(),
      source: Type.Union([Type.Literal('reference'), Type.Literal('trade')]),
    }),
  }),
  homeTokens: route({
    path: '/invest/Home/getTokens',
    auth: false,
    tag: 'home',
    summary:
      "The platform's tokens in display order: symbol, mint (null for a token off chain), decimals and icon (a path " +
      'of this site)',
    body: Empty,
    data: Type.Object({
      list: Type.Array(
        Type.Object({
          symbol: Type.String(),
          mint: Type.Union([Type.String(), Type.Null()]),
          decimals: Type.Integer(),
          icon: Type.String({ description: 'e.g. /tokens/usdt.svg' }),
        }),
      ),
    }),
  }),
  homeIndex: route({
    path: '/invest/Home/index',
    auth: true,
    tag: 'home',
    summary:
      "Home figures: price and pair, today's recommended power, direct new power, team power and personal power " +
      '(power in USDT base units)',
    body: Empty,
    data: Type.Object({
      price: Type.String(),
      pair: Type.String(),
      decimals: Type.Integer(),
      day: Day,
      recommended_power: BaseUnits,
      direct_new_power: BaseUnits,
      team_power: BaseUnits,
      personal_power: BaseUnits,
    }),
  }),
} as const satisfies Record<string, RouteDef>
